// Package instanceaction serves the actions on a compute instance: power operations
// and snapshots. Both find the instance the same way, wait for the cloud within a
// timeout, and tell the user what they are waiting for while they wait.
package instanceaction

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// defaultTimeout matches the instance resource's: clouds that are slow to boot a
// server are as slow to stop or snapshot it.
const defaultTimeout = 30 * time.Minute

// timeoutAttribute bounds the wait for what the action waits for.
func timeoutAttribute(waitsFor string) schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Longest time to wait for " + waitsFor + ", as a duration such as `\"10m\"` or " +
			"`\"1h30m\"`. Defaults to `\"" + defaultTimeout.String() + "\"`. When it passes, the action fails; " +
			"what the cloud was asked to do may still happen.",
		Validators: []validator.String{validators.PositiveDuration()},
	}
}

// waiting is the timeout every action's configuration takes (timeoutAttribute), which
// its model embeds.
type waiting struct {
	Timeout types.String `tfsdk:"timeout"`
}

func (w *waiting) waited() *waiting { return w }

// invoke is every invocation: the configuration into m, then, unless the action
// cannot go on (the diagnostics say why), do, with ctx bounded by m's timeout and a
// reporter of its progress.
func invoke(ctx context.Context, a *family.Action, req action.InvokeRequest, resp *action.InvokeResponse,
	m interface{ waited() *waiting }, do func(context.Context, *reporter),
) {
	if !a.Begin(ctx, req.Config, m, &resp.Diagnostics) {
		return
	}

	ctx, cancel := withTimeout(ctx, m.waited().Timeout, &resp.Diagnostics)
	defer cancel()

	if resp.Diagnostics.HasError() {
		return
	}

	do(ctx, &reporter{resp: resp})
}

// withTimeout bounds ctx by the configured timeout. The value was validated unless it
// was unknown then, so it is checked again here.
func withTimeout(ctx context.Context, timeout types.String, diags *diag.Diagnostics) (context.Context, context.CancelFunc) {
	limit := defaultTimeout

	if value := timeout.ValueString(); value != "" {
		parsed, err := time.ParseDuration(value)
		if err != nil || parsed <= 0 {
			diags.AddAttributeError(path.Root("timeout"), "Invalid duration",
				fmt.Sprintf("%q is not a positive duration. Use a number with a unit, such as \"30s\", \"2m\" or \"1m30s\".", value))

			return ctx, func() {}
		}

		limit = parsed
	}

	return context.WithTimeout(ctx, limit)
}

// reporter passes the façade's progress on to Terraform as it happens, and remembers
// whether it had anything to say.
type reporter struct {
	resp *action.InvokeResponse
	sent bool
}

func (r *reporter) progress(message string) {
	r.sent = true
	r.resp.SendProgress(action.InvokeProgressEvent{Message: message})
}
