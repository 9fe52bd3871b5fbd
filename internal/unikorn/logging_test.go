package unikorn

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entry is one line a Logger received.
type entry struct {
	level   LogLevel
	message string
	fields  map[string]any
}

// logRecorder is a Logger that keeps what it receives.
type logRecorder struct {
	mu      sync.Mutex
	entries []entry
}

func (r *logRecorder) log(_ context.Context, level LogLevel, message string, fields map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()

	r.entries = append(r.entries, entry{level, message, fields})
}

func (r *logRecorder) String() string {
	var b strings.Builder
	for _, e := range r.entries {
		fmt.Fprintf(&b, "%s %v\n", e.message, e.fields)
	}

	return b.String()
}

func withLogger(logger Logger) func(*Config) {
	return func(cfg *Config) { cfg.Logger = logger }
}

func TestLogsMaskSecrets(t *testing.T) {
	const (
		privateKey = "-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\\n-----END OPENSSH PRIVATE KEY-----\\n"
		userData   = "I2Nsb3VkLWNvbmZpZwpwYXNzd29yZDogaHVudGVyMgo="
	)

	logs := &logRecorder{}
	client := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			answer(http.StatusOK, `{"privateKey":"`+privateKey+`"}`)(w, r)
		default:
			answer(http.StatusCreated, `{"metadata":{"name":"web"}}`)(w, r)
		}
	}), withLogger(logs.log))

	ctx := t.Context()

	key, err := client.GetServerSSHKey(ctx, "s-1")
	require.NoError(t, err)
	assert.Contains(t, key.PrivateKey, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU=", "masking is for logs only")

	_, err = client.CreateServer(ctx, ServerCreate{Metadata: WriteMetadata{Name: "web"}, Spec: ServerCreateSpec{ServerSpec: ServerSpec{UserData: userData}}})
	require.NoError(t, err)

	logged := logs.String()
	assert.NotContains(t, logged, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU=")
	assert.NotContains(t, logged, userData)

	var attempts, bodies []entry

	for _, e := range logs.entries {
		switch e.message {
		case "API request":
			attempts = append(attempts, e)
		case "API request body", "API response body":
			bodies = append(bodies, e)
		}
	}

	require.Len(t, attempts, 2, "one debug line per attempt")
	assert.Equal(t, LogDebug, attempts[0].level)
	assert.Equal(t, "GET", attempts[0].fields["method"])
	assert.Equal(t, "/api/v2/servers/s-1/sshkey", attempts[0].fields["path"])
	assert.Equal(t, http.StatusOK, attempts[0].fields["status"])
	assert.Equal(t, 1, attempts[0].fields["attempt"])
	assert.NotEmpty(t, attempts[0].fields["duration"])

	// The SSH key answer, the create request and its answer, all at trace level.
	require.Len(t, bodies, 3)

	for _, body := range bodies {
		assert.Equal(t, LogTrace, body.level)
	}

	assert.Equal(t, `{***}`, bodies[0].fields["response_body"])
	assert.Contains(t, bodies[1].fields["request_body"], `"name":"web"`, "bodies stay readable around the masked parts")
}

func TestRetriesAreLogged(t *testing.T) {
	server := &flaky{failures: 1, fail: failWith(http.StatusServiceUnavailable), status: http.StatusAccepted}
	logs := &logRecorder{}
	client := newTestClient(t, server, withLogger(logs.log))

	require.NoError(t, client.DeleteServer(t.Context(), "s-1"))

	var messages []string
	for _, e := range logs.entries {
		messages = append(messages, e.message)
	}

	assert.Equal(t, []string{"API request", "API response body", "retrying API request", "API request"}, messages)
}

// A caller whose logs are off gets the lines of the attempts, never a body: masking one
// would cost a pass over it for nobody.
func TestOmittedBodiesAreNeitherMaskedNorLogged(t *testing.T) {
	logs := &logRecorder{}
	client := newTestClient(t, answer(http.StatusCreated, `{"metadata":{"name":"web"}}`),
		withLogger(logs.log), func(cfg *Config) { cfg.OmitBodies = true })

	_, err := client.CreateServer(t.Context(), ServerCreate{Metadata: WriteMetadata{Name: "web"}})
	require.NoError(t, err)

	require.Len(t, logs.entries, 1, logs.String())
	assert.Equal(t, "API request", logs.entries[0].message)
}
