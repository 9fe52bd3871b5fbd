package provider

import (
	"context"

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
