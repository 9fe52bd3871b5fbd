package provider

import (
	"context"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// apiLogSubsystem names the API client's logs within the provider's, so that users can
// turn them up or down alone with TF_LOG_PROVIDER_UNIKORN_API (e.g. TRACE for bodies).
const apiLogSubsystem = "unikorn_api"

// apiLogger writes the API client's lines to Terraform's log. The token is never
// logged on purpose; masking it anyway protects against it turning up in an echoed
// body or an error text. Outside a provider (no root logger in ctx) tflog does
// nothing, so neither does this.
func apiLogger(token string) cloud.Logger {
	return func(ctx context.Context, level cloud.LogLevel, message string, fields map[string]any) {
		ctx = tflog.NewSubsystem(ctx, apiLogSubsystem, tflog.WithLevelFromEnv("TF_LOG_PROVIDER_UNIKORN_API"), tflog.WithRootFields())
		ctx = tflog.SubsystemMaskAllFieldValuesStrings(ctx, apiLogSubsystem, token)
		ctx = tflog.SubsystemMaskMessageStrings(ctx, apiLogSubsystem, token)

		if level == cloud.LogTrace {
			tflog.SubsystemTrace(ctx, apiLogSubsystem, message, fields)

			return
		}

		tflog.SubsystemDebug(ctx, apiLogSubsystem, message, fields)
	}
}

// apiLogSettings are the variables that can bring the API client's lines to a level
// at which Terraform keeps them, from the subsystem's own up to Terraform's.
var apiLogSettings = []string{"TF_LOG_PROVIDER_UNIKORN_API", "TF_LOG_PROVIDER_UNIKORN", "TF_LOG_PROVIDER", "TF_LOG"}

// apiBodiesLogged reports whether any of apiLogSettings asks for logs. When none does
// (the provider then sets them "off", see main.go), the client's bodies would be
// masked only to be dropped: a pass over every answer, a megabyte for a list of a
// thousand instances.
func apiBodiesLogged() bool {
	for _, name := range apiLogSettings {
		if value := os.Getenv(name); value != "" && !strings.EqualFold(value, "off") {
			return true
		}
	}

	return false
}
