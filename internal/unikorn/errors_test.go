package unikorn

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorDecoding(t *testing.T) {
	t.Parallel()

	html := "<html>\n  <head><title>502 Bad Gateway</title></head>\n  <body>" + strings.Repeat("nginx ", 60) + "</body>\n</html>"

	tests := map[string]struct {
		status    int
		header    map[string]string
		body      string
		call      func(*Client) error
		want      APIError
		wantError string
	}{
		"error document": {
			status: http.StatusConflict,
			body:   `{"error":"conflict","error_description":"the requested resource already exists","trace_id":"4bf92f3577b34da6"}`,
			call:   createServer,
			want: APIError{
				StatusCode: http.StatusConflict, Code: ErrorConflict, Description: "the requested resource already exists",
				TraceID: "4bf92f3577b34da6", Method: http.MethodPost, Path: "/api/v2/servers",
			},
			wantError: "POST /api/v2/servers: 409 conflict: the requested resource already exists (trace ID 4bf92f3577b34da6)",
		},
		"empty body": {
			status:    http.StatusInternalServerError,
			call:      getServer,
			want:      APIError{StatusCode: http.StatusInternalServerError, Method: http.MethodGet, Path: "/api/v2/servers/s-1"},
			wantError: "GET /api/v2/servers/s-1: 500 internal server error",
		},
		"HTML page from a proxy": {
			status: http.StatusBadGateway,
			body:   html,
			call:   createServer,
			want: APIError{
				StatusCode: http.StatusBadGateway, Method: http.MethodPost, Path: "/api/v2/servers",
				Description: snippet([]byte(html)),
			},
			wantError: "POST /api/v2/servers: 502 bad gateway: <html> <head><title>502 Bad Gateway</title></head> <body>nginx nginx",
		},
		"JSON that is not an error document": {
			status:    http.StatusForbidden,
			body:      `{"message":"denied"}`,
			call:      getServer,
			want:      APIError{StatusCode: http.StatusForbidden, Method: http.MethodGet, Path: "/api/v2/servers/s-1", Description: `{"message":"denied"}`},
			wantError: `GET /api/v2/servers/s-1: 403 forbidden: {"message":"denied"}`,
		},
		"Retry-After in seconds": {
			status: http.StatusTooManyRequests,
			header: map[string]string{"Retry-After": "7"},
			body:   `{"error":"server_error","error_description":"slow down"}`,
			call:   createServer,
			want: APIError{
				StatusCode: http.StatusTooManyRequests, Code: ErrorServerError, Description: "slow down",
				Method: http.MethodPost, Path: "/api/v2/servers", RetryAfter: 7 * time.Second,
			},
		},
		"success status other than the contract's": {
			status: http.StatusOK,
			body:   `{"metadata":{"name":"n"}}`,
			call:   createServer,
			want: APIError{
				StatusCode: http.StatusOK, Method: http.MethodPost, Path: "/api/v2/servers",
				Description: "unexpected success status, the API promises 201 Created",
			},
			wantError: "POST /api/v2/servers: 200 ok: unexpected success status, the API promises 201 Created",
		},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			client := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for key, value := range test.header {
					w.Header().Set(key, value)
				}

				answer(test.status, test.body)(w, r)
			}), func(c *Config) { c.Retry.MaxAttempts = 1 })

			err := test.call(client)

			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, test.want, *apiErr)

			if test.wantError != "" {
				assert.True(t, strings.HasPrefix(err.Error(), test.wantError), "got %q", err.Error())
			}
		})
	}
}

func createServer(c *Client) error {
	_, err := c.CreateServer(context.Background(), ServerCreate{Metadata: WriteMetadata{Name: "n"}})

	return err
}

func getServer(c *Client) error {
	_, err := c.GetServer(context.Background(), "s-1")

	return err
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()

	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

	tests := map[string]struct {
		value string
		want  time.Duration
	}{
		"absent":         {value: "", want: 0},
		"seconds":        {value: "3", want: 3 * time.Second},
		"zero":           {value: "0", want: 0},
		"negative":       {value: "-5", want: 0},
		"HTTP date":      {value: now.Add(90 * time.Second).Format(http.TimeFormat), want: 90 * time.Second},
		"HTTP date past": {value: now.Add(-time.Minute).Format(http.TimeFormat), want: 0},
		"garbage":        {value: "soon", want: 0},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			assert.Equal(t, test.want, parseRetryAfter(test.value, now))
		})
	}

	assert.Positive(t, parseRetryAfter("99999999999999999", now), "a huge value must not overflow")
}

func TestStatusHelpers(t *testing.T) {
	t.Parallel()

	helpers := map[string]struct {
		is     func(error) bool
		status int
	}{
		"IsBadRequest":    {IsBadRequest, http.StatusBadRequest},
		"IsUnauthorized":  {IsUnauthorized, http.StatusUnauthorized},
		"IsForbidden":     {IsForbidden, http.StatusForbidden},
		"IsNotFound":      {IsNotFound, http.StatusNotFound},
		"IsConflict":      {IsConflict, http.StatusConflict},
		"IsUnprocessable": {IsUnprocessable, http.StatusUnprocessableEntity},
	}

	statuses := []int{
		http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound,
		http.StatusConflict, http.StatusUnprocessableEntity, http.StatusInternalServerError,
	}

	for name, helper := range helpers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			for _, status := range statuses {
				err := fmt.Errorf("creating the instance: %w", &APIError{StatusCode: status})
				assert.Equal(t, status == helper.status, helper.is(err), "status %d", status)
			}

			assert.False(t, helper.is(nil))
			assert.False(t, helper.is(errors.New("not found")))
		})
	}
}

func TestSnippetKeepsUTF8Whole(t *testing.T) {
	t.Parallel()

	body := strings.Repeat("é", maxErrorSnippet) // two bytes each: the cut falls inside one

	got := snippet([]byte(body))

	assert.True(t, strings.HasSuffix(got, "…"))
	assert.Equal(t, strings.Repeat("é", maxErrorSnippet/2)+"…", got)
}
