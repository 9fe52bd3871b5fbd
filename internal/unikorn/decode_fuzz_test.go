package unikorn

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// Whatever a server or a proxy in front of it answers, decoding an error never
// panics, keeps the status, and yields one readable, bounded line unless the body is
// an error document.
func FuzzDecodeError(f *testing.F) {
	f.Add(404, "", []byte(`{"error":"not_found","error_description":"resource not found"}`))
	f.Add(429, "7", []byte(`{"error":"server_error","error_description":"slow down","trace_id":"abc"}`))
	f.Add(503, "Wed, 21 Oct 2015 07:28:00 GMT", []byte("<html><body>Service Unavailable</body></html>"))
	f.Add(201, "", []byte(`{"metadata":{}}`))
	f.Add(500, "-1", []byte("\xff\xfe not utf-8 \x00"))

	f.Fuzz(func(t *testing.T, status int, retryAfter string, body []byte) {
		status = 100 + abs(status)%900
		response := &http.Response{StatusCode: status, Header: http.Header{"Retry-After": []string{retryAfter}}}

		apiErr := newAPIError(http.MethodGet, "/api/v2/servers", response, body, http.StatusOK)

		if apiErr.StatusCode != status {
			t.Fatalf("status %d became %d", status, apiErr.StatusCode)
		}

		if apiErr.RetryAfter < 0 {
			t.Fatalf("Retry-After %q gave a negative wait %s", retryAfter, apiErr.RetryAfter)
		}

		message := apiErr.Error()
		if !strings.HasPrefix(message, "GET /api/v2/servers: "+strconv.Itoa(status)) {
			t.Fatalf("the message does not start with the request and status: %q", message)
		}

		if !utf8.ValidString(apiErr.Description) {
			t.Fatalf("the description is not UTF-8: %q", apiErr.Description)
		}

		if apiErr.Code == "" && (len(apiErr.Description) > maxErrorSnippet+len("…") || strings.ContainsAny(apiErr.Description, "\n\r\t")) {
			t.Fatalf("a body that is no error document became more than one bounded line: %q", apiErr.Description)
		}
	})
}

// Whatever a list or an object answer holds, decoding it never panics; what decodes
// encodes again, and encodes the same way once more (nothing is lost or invented).
func FuzzDecodeServerList(f *testing.F) {
	f.Add([]byte(`null`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`[{"metadata":{"id":"a1","name":"web","tags":[{"name":"compute.unikorn-cloud.org/instance-id","value":"b2"}],` +
		`"creationTime":"2026-01-02T03:04:05Z","provisioningStatus":"provisioned","healthStatus":"healthy",` +
		`"organizationId":"o","projectId":"p"},"spec":{"flavorId":"f","imageId":"i","networking":{"securityGroups":["s"],` +
		`"publicIP":true,"allowedSourceAddresses":["10.0.0.0/24"]},"userData":"I2Nsb3VkLWNvbmZpZw=="},` +
		`"status":{"regionId":"r","networkId":"n","powerState":"Running","privateIP":"10.0.0.4"}}]`))
	f.Add([]byte(`{"metadata":{"id":"a1"}}`))
	f.Add([]byte(`[{"metadata":{"creationTime":"9999-12-31T23:59:59-23:59"}}]`))
	f.Add([]byte(`[{"metadata":{"tags":null}},null]`))

	op := operation{method: http.MethodGet, path: "/api/v2/servers"}

	f.Fuzz(func(t *testing.T, body []byte) {
		servers, err := decodeList[Server](op, body)
		if err == nil {
			reencodes(t, servers)

			for i := range servers {
				_, _ = servers[i].Metadata.Tags.Get("compute.unikorn-cloud.org/instance-id")
			}
		}

		server, err := decodeObject[Server](op, body)
		if err == nil {
			if server == nil {
				t.Fatal("a decoded object is nil")
			}

			reencodes(t, server)
		}
	})
}

// reencodes requires value to encode, decode and encode to the same bytes.
func reencodes[T any](t *testing.T, value T) {
	t.Helper()

	first, err := json.Marshal(value)
	if err != nil {
		t.Fatalf("a decoded answer does not encode: %v", err)
	}

	var again T
	if err := json.Unmarshal(first, &again); err != nil {
		t.Fatalf("an encoded answer does not decode: %v\n%s", err, first)
	}

	second, err := json.Marshal(again)
	if err != nil {
		t.Fatalf("a decoded answer does not encode the second time: %v", err)
	}

	if !bytes.Equal(first, second) {
		t.Fatalf("encoding is not stable:\n%s\n%s", first, second)
	}
}

func abs(n int) int {
	if n < 0 {
		return -(n + 1) // no overflow at the smallest int
	}

	return n
}
