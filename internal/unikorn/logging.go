package unikorn

import (
	"context"
	"regexp"
	"time"
)

// LogLevel says how much a log line matters.
type LogLevel int

const (
	// LogDebug is one line per attempt and per retry.
	LogDebug LogLevel = iota
	// LogTrace carries request and response bodies.
	LogTrace
)

// Logger receives the client's log lines. The client masks what it knows to be secret
// in a body (private keys, user data, access tokens); the caller's logger masks the token, which the
// caller gave and whose log it owns. A nil Logger logs nothing.
type Logger func(ctx context.Context, level LogLevel, message string, fields map[string]any)

// secretBodyFields matches the JSON members whose values must never reach a log:
// SSH private keys, user data (cloud-init often carries passwords and tokens) and
// service account access tokens.
var secretBodyFields = regexp.MustCompile(`"(?:privateKey|userData|accessToken)"\s*:\s*"(?:[^"\\]|\\.)*"`)

// maskBody hides the secret members of a body and keeps the rest readable.
func maskBody(body []byte) string {
	return secretBodyFields.ReplaceAllString(string(body), "***")
}

func (c *Client) log(ctx context.Context, level LogLevel, message string, fields map[string]any) {
	if c.logger != nil {
		c.logger(ctx, level, message, fields)
	}
}

func logFields(op operation, attempt int) map[string]any {
	return map[string]any{
		"method":  op.method,
		"path":    op.pathWithQuery(),
		"attempt": attempt,
	}
}

func (c *Client) logRequest(ctx context.Context, op operation, payload []byte, attempt int) {
	if len(payload) == 0 || !c.bodies {
		return
	}

	fields := logFields(op, attempt)
	fields["request_body"] = maskBody(payload)
	c.log(ctx, LogTrace, "API request body", fields)
}

// logAttempt writes the one debug line of every attempt; status is 0 when no answer came.
func (c *Client) logAttempt(ctx context.Context, op operation, attempt, status int, took time.Duration, err error) {
	fields := logFields(op, attempt)
	fields["duration"] = took.Round(time.Microsecond).String()

	if status != 0 {
		fields["status"] = status
	}

	if err != nil {
		fields["error"] = err.Error()
	}

	c.log(ctx, LogDebug, "API request", fields)
}

func (c *Client) logResponse(ctx context.Context, op operation, body []byte, attempt int) {
	// A secret answer is not JSON whose secret members could be masked: none of it is
	// logged.
	if len(body) == 0 || !c.bodies || op.secret {
		return
	}

	fields := logFields(op, attempt)
	fields["response_body"] = maskBody(body)
	c.log(ctx, LogTrace, "API response body", fields)
}

func (c *Client) logRetry(ctx context.Context, op operation, attempt int, wait time.Duration, err error) {
	fields := logFields(op, attempt)
	fields["wait"] = wait.String()
	fields["error"] = err.Error()
	c.log(ctx, LogDebug, "retrying API request", fields)
}
