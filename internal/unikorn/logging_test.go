package unikorn

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLogsMaskSecrets(t *testing.T) {
	const (
		privateKey = "-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\\n-----END OPENSSH PRIVATE KEY-----\\n"
		userData   = "I2Nsb3VkLWNvbmZpZwpwYXNzd29yZDogaHVudGVyMgo="
	)

	client := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			answer(http.StatusOK, `{"privateKey":"`+privateKey+`"}`)(w, r)
		default:
			// Echo the token back, as a misbehaving proxy might.
			answer(http.StatusCreated, `{"metadata":{"name":"web"},"note":"`+testToken+`"}`)(w, r)
		}
	}))

	var output bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &output)

	key, err := client.GetServerSSHKey(ctx, "s-1")
	require.NoError(t, err)
	assert.Contains(t, key.PrivateKey, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU=", "masking is for logs only")

	_, err = client.CreateServer(ctx, ServerCreate{Metadata: WriteMetadata{Name: "web"}, Spec: ServerCreateSpec{ServerSpec: ServerSpec{UserData: userData}}})
	require.NoError(t, err)

	logged := output.String()
	assert.NotContains(t, logged, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU=")
	assert.NotContains(t, logged, userData)
	assert.NotContains(t, logged, testToken)

	entries, err := tflogtest.MultilineJSONDecode(&output)
	require.NoError(t, err)

	var attempts, bodies []map[string]any

	for _, entry := range entries {
		switch entry["@message"] {
		case "API request":
			attempts = append(attempts, entry)
		case "API request body", "API response body":
			bodies = append(bodies, entry)
		}
	}

	require.Len(t, attempts, 2, "one debug line per attempt")
	assert.Equal(t, "debug", attempts[0]["@level"])
	assert.Equal(t, "GET", attempts[0]["method"])
	assert.Equal(t, "/api/v2/servers/s-1/sshkey", attempts[0]["path"])
	assert.InDelta(t, http.StatusOK, attempts[0]["status"], 0)
	assert.InDelta(t, 1, attempts[0]["attempt"], 0)
	assert.NotEmpty(t, attempts[0]["duration"])

	// The SSH key answer, the create request and its answer, all at trace level.
	require.Len(t, bodies, 3)

	for _, body := range bodies {
		assert.Equal(t, "trace", body["@level"])
	}

	assert.Equal(t, `{***}`, bodies[0]["response_body"])
	assert.Contains(t, bodies[1]["request_body"], `"name":"web"`, "bodies stay readable around the masked parts")
}

func TestRetriesAreLogged(t *testing.T) {
	server := &flaky{failures: 1, fail: failWith(http.StatusServiceUnavailable), status: http.StatusAccepted}
	client := newTestClient(t, server)

	var output bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &output)

	require.NoError(t, client.DeleteServer(ctx, "s-1"))

	entries, err := tflogtest.MultilineJSONDecode(&output)
	require.NoError(t, err)

	var messages []string
	for _, entry := range entries {
		message, _ := entry["@message"].(string)
		messages = append(messages, message)
	}

	assert.Equal(t, []string{"API request", "API response body", "retrying API request", "API request"}, messages)
}
