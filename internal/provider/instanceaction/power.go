package instanceaction

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instanceref"
)

// PowerTypeName is the power action's Terraform type.
const PowerTypeName = "unikorn_compute_instance_power"

var (
	_ action.Action              = (*Power)(nil)
	_ action.ActionWithConfigure = (*Power)(nil)
)

// Power is the unikorn_compute_instance_power action: one type for every power
// operation, which the configuration names, because they differ only in the call
// they make and the state they wait for, and the façade knows both.
type Power struct {
	family.Action
}

// NewPower returns the action for the provider to serve.
func NewPower() action.Action {
	return &Power{family.Action{DataSource: family.DataSource{Name: PowerTypeName, Looks: "change the instance's power state"}}}
}

type powerModel struct {
	instanceref.Model
	waiting

	Operation types.String `tfsdk:"operation"`
}

func (a *Power) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	operations := make([]string, 0, len(compute.PowerOperations()))
	for _, operation := range compute.PowerOperations() {
		operations = append(operations, string(operation))
	}

	attributes := instanceref.ActionAttributes()
	maps.Copy(attributes, map[string]schema.Attribute{
		"operation": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "What to do: `start` a stopped instance, `stop` a running one, `reboot` a running " +
				"one through its operating system, or `hard_reboot` it by resetting the machine.",
			Validators: []validator.String{stringvalidator.OneOf(operations...)},
		},
		"timeout": timeoutAttribute("the instance to reach its new power state"),
	})

	resp.Schema = schema.Schema{
		MarkdownDescription: "Starts, stops or reboots a compute instance and waits until it is `Running` " +
			"(`Stopped` after a stop). It is idempotent: starting a running instance or stopping a stopped " +
			"one succeeds without asking the cloud, and one already on its way is only waited for. An " +
			"operation the instance's state does not allow, such as rebooting a stopped instance, fails " +
			"and changes nothing.\n\n" +
			"The instance's `power_state` attribute shows the result at the next refresh; it is never " +
			"planned, so the configuration does not fight the action.",
		Attributes: attributes,
	}
}

func (a *Power) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var data powerModel

	invoke(ctx, &a.Action, req, resp, &data, func(ctx context.Context, report *reporter) {
		operation := compute.PowerOperation(data.Operation.ValueString())

		instance, err := a.Provider.Instances.Power(ctx, data.Ref(), operation, report.progress)
		if err != nil {
			resp.Diagnostics.Append(diagnostic.Compute(fmt.Sprintf("Unable to %s the instance", strings.ReplaceAll(string(operation), "_", " ")), err)...)

			return
		}

		if !report.sent {
			report.progress(fmt.Sprintf("Instance %s is already %s; nothing to do.", instance.ID, instance.PowerState))
		}
	})
}
