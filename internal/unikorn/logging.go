package unikorn

import (
	"context"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// logSubsystem names the client's logs within the provider's, so that users can turn
// them up or down alone with TF_LOG_PROVIDER_UNIKORN_API (e.g. TRACE to see bodies).
const logSubsystem = "unikorn_api"

// secretBodyFields matches the JSON members whose values must never reach a log:
// SSH private keys, and user data (cloud-init often carries passwords and tokens).
var secretBodyFields = regexp.MustCompile(`"(?:privateKey|userData)"\s*:\s*"(?:[^"\\]|\\.)*"`)

// logContext sets up the subsystem with its masking on the caller's context. Outside a
// provider (no root logger in ctx) tflog does nothing, so neither does this.
func (c *Client) logContext(ctx context.Context) context.Context {
	ctx = tflog.NewSubsystem(ctx, logSubsystem, tflog.WithLevelFromEnv("TF_LOG_PROVIDER_UNIKORN_API"), tflog.WithRootFields())
	ctx = tflog.SubsystemMaskAllFieldValuesRegexes(ctx, logSubsystem, secretBodyFields)
	// The token is never logged on purpose; masking it anyway protects against it
	// turning up in an echoed body or an error text.
	ctx = tflog.SubsystemMaskAllFieldValuesStrings(ctx, logSubsystem, c.token)
	ctx = tflog.SubsystemMaskMessageStrings(ctx, logSubsystem, c.token)

	return ctx
}

func logFields(op operation, attempt int) map[string]any {
	return map[string]any{
		"method":  op.method,
		"path":    op.pathWithQuery(),
		"attempt": attempt,
	}
}

func logRequest(ctx context.Context, op operation, payload []byte, attempt int) {
	if len(payload) == 0 {
		return
	}

	fields := logFields(op, attempt)
	fields["request_body"] = string(payload)
	tflog.SubsystemTrace(ctx, logSubsystem, "API request body", fields)
}

// logAttempt writes the one debug line of every attempt; status is 0 when no answer came.
func logAttempt(ctx context.Context, op operation, attempt, status int, took time.Duration, err error) {
	fields := logFields(op, attempt)
	fields["duration"] = took.Round(time.Microsecond).String()

	if status != 0 {
		fields["status"] = status
	}

	if err != nil {
		fields["error"] = err.Error()
	}

	tflog.SubsystemDebug(ctx, logSubsystem, "API request", fields)
}

func logResponse(ctx context.Context, op operation, body []byte, attempt int) {
	if len(body) == 0 {
		return
	}

	fields := logFields(op, attempt)
	fields["response_body"] = string(body)
	tflog.SubsystemTrace(ctx, logSubsystem, "API response body", fields)
}

func logRetry(ctx context.Context, op operation, attempt int, wait time.Duration, err error) {
	fields := logFields(op, attempt)
	fields["wait"] = wait.String()
	fields["error"] = err.Error()
	tflog.SubsystemDebug(ctx, logSubsystem, "retrying API request", fields)
}
