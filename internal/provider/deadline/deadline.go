// Package deadline bounds a resource operation by its configured timeout.
package deadline

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// Within returns ctx bounded by the timeout get reads from a resource's `timeouts`
// block (its Create, Update or Delete method), or by fallback when none is set.
func Within(ctx context.Context, get func(context.Context, time.Duration) (time.Duration, diag.Diagnostics),
	fallback time.Duration, diags *diag.Diagnostics,
) (context.Context, context.CancelFunc) {
	timeout, d := get(ctx, fallback)
	diags.Append(d...)

	return context.WithTimeout(ctx, timeout)
}
