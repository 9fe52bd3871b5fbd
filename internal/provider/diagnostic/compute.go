package diagnostic

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
)

// InstanceTypeName is the resource type an import command names.
const InstanceTypeName = "unikorn_compute_instance"

// Compute turns an error of the compute façade into diagnostics: one per validation
// problem, pointed at its attribute, and for every other failure one diagnostic that
// says what is left behind and what to do. summary names the operation that failed.
func Compute(summary string, err error) diag.Diagnostics {
	var (
		problems     *compute.ValidationError
		taken        *compute.NameTakenError
		quota        *compute.QuotaError
		inconsistent *compute.ConsistencyError
		failed       *compute.ProvisioningFailedError
		wait         *compute.WaitError
		compensation *compute.CompensationError
	)

	switch {
	case errors.As(err, &problems):
		var diags diag.Diagnostics
		for _, problem := range problems.Problems {
			diags.Append(diag.NewAttributeErrorDiagnostic(path.Root(string(problem.Field)), problem.Summary, problem.Detail))
		}

		return diags
	case errors.As(err, &taken):
		return diag.Diagnostics{Error(summary,
			taken.Error()+". Instance IDs derive from the network and the name, so that instance is the one this "+
				"resource describes, created earlier or outside this configuration. Nothing was created and no quota was charged.",
			fmt.Sprintf("To manage the existing instance, import it (NAME being this resource's name in the configuration):\n\n"+
				"  terraform import %s.NAME %s/%s/%s\n\nor give this instance another name.",
				InstanceTypeName, taken.OrganizationID, taken.ProjectID, taken.InstanceID))}
	case errors.As(err, &quota):
		return diag.Diagnostics{Error(summary, quota.Error()+". Nothing was created.",
			"Delete instances you no longer need, choose a smaller flavor, or ask the platform operator for more quota.")}
	case errors.As(err, &inconsistent):
		return diag.Diagnostics{Error(summary, inconsistent.Error()+".",
			"Terraform will not guess which server is the instance. Delete the servers that are not the instance, "+
				"or remove the tag from them, then run Terraform again.")}
	case errors.As(err, &failed):
		return diag.Diagnostics{Error(summary, failed.Error()+".",
			"The instance is recorded in the state as tainted: the next apply replaces it. If it fails again, "+
				"report the instance ID to the platform operator.")}
	case errors.As(err, &compensation):
		return diag.Diagnostics{Error(summary, compensation.Error()+".",
			"Something may be left behind: check the named object and remove it if it is there.")}
	case errors.As(err, &wait):
		return diag.Diagnostics{Error(summary, wait.Error()+".",
			"The cloud did not finish in time. The instance is recorded in the state (tainted after a create) and "+
				"the next apply carries on; raise the timeouts if the cloud is slow.")}
	case errors.Is(err, compute.ErrNotFound):
		return diag.Diagnostics{Error(summary, "The instance does not exist: no server carries its tag.",
			"Check the instance ID, and that the provider is configured for the instance's organization and project.")}
	default:
		return diag.Diagnostics{APIError(summary, err)}
	}
}
