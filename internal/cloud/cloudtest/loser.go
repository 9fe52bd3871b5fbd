package cloudtest

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"syscall"
)

// Loser stands for a network that loses the answers to the next count requests of a
// method whose path starts with a prefix, after the sandbox has acted on them: as a
// gateway's 502 when Gateway is set, as a connection reset otherwise. It is a
// Config.Transport.
type Loser struct {
	// Gateway makes a lost answer a gateway's 502 rather than a dropped connection.
	Gateway bool

	mu     sync.Mutex
	method string
	prefix string
	count  int
}

// Lose loses the answers to the next count requests of method to a path that starts
// with prefix.
func (l *Loser) Lose(method, prefix string, count int) {
	l.mu.Lock()
	defer l.mu.Unlock()

	l.method, l.prefix, l.count = method, prefix, count
}

// Left is how many answers are still to be lost.
func (l *Loser) Left() int {
	l.mu.Lock()
	defer l.mu.Unlock()

	return l.count
}

// RoundTrip implements http.RoundTripper.
func (l *Loser) RoundTrip(r *http.Request) (*http.Response, error) {
	response, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}

	l.mu.Lock()
	defer l.mu.Unlock()

	if l.count == 0 || r.Method != l.method || !strings.HasPrefix(r.URL.Path, l.prefix) {
		return response, nil
	}

	l.count--
	_ = response.Body.Close()

	if !l.Gateway {
		return nil, syscall.ECONNRESET
	}

	return &http.Response{
		StatusCode: http.StatusBadGateway, Header: http.Header{"Content-Type": {"application/json"}},
		Body:    io.NopCloser(strings.NewReader(`{"error":"server_error","error_description":"the gateway lost the answer"}`)),
		Request: r,
	}, nil
}
