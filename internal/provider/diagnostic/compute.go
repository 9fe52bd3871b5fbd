package diagnostic

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/volumes"
)

// InstanceTypeName is the resource type an import command names.
const InstanceTypeName = "unikorn_compute_instance"

// Compute turns an error of the compute façade (instances on either back end and
// their actions) into diagnostics: one per validation problem, pointed at its
// attribute, and for every other failure of compute's one diagnostic that says what is
// left behind and what to do; the failures every family shares read as Cloud words
// them. summary names the operation that failed.
func Compute(summary string, err error) diag.Diagnostics {
	var (
		problems     *compute.ValidationError
		taken        *compute.NameTakenError
		quota        *compute.QuotaError
		inconsistent *compute.ConsistencyError
		failed       *compute.ProvisioningFailedError
		compensation *compute.CompensationError
		access       *compute.AccessError
		rights       *compute.ServiceRightsError
		charge       *compute.ChargeUnknownError
		refusal      *compute.RefusedError
		attachment   *compute.AttachmentFailedError
		attached     *volumes.AttachedError
	)

	switch {
	case errors.As(err, &problems):
		var diags diag.Diagnostics
		for _, problem := range problems.Problems {
			diags.Append(diag.NewAttributeErrorDiagnostic(path.Root(string(problem.Field)), problem.Summary, problem.Detail))
		}

		return diags
	case errors.As(err, &compensation):
		return diag.Diagnostics{Error(summary, compensation.Error()+".",
			"Quota may still be charged and something may be left behind: check the named object and remove it if it is there.")}
	case errors.As(err, &rights):
		return diag.Diagnostics{Error(summary, sentence(rights.Error())+" Region's server API is a service API: "+
			"in Unikorn only a service account or a platform administrator may call it, and an ordinary user's token is refused whatever its roles.",
			`Use the compute back end, which any project member may use: set instance_api = "compute" and `+
				"compute_endpoint (or UNIKORN_COMPUTE_ENDPOINT) in the provider block; or use a token with service rights.")}
	case errors.As(err, &access):
		return diag.Diagnostics{Error(summary, sentence(access.Error()),
			"Configure the provider with a token of the instance's organization and project. Terraform keeps the "+
				"instance in its state; it is not deleted, and its quota is not released.")}
	case errors.As(err, &charge):
		return diag.Diagnostics{Error(summary, sentence(charge.Error()),
			"Identity cannot list allocations, so the provider cannot release it. Ask the platform operator to "+
				"check for an allocation of kind "+compute.AllocationKind+" with ID "+charge.InstanceID+", then apply again.")}
	case errors.As(err, &taken):
		return diag.Diagnostics{Error(summary,
			taken.Error()+". Instance IDs derive from the network and the name, so that instance is the one this "+
				"resource describes, created earlier or outside this configuration. Nothing was created and no quota was charged.",
			fmt.Sprintf("If this resource is being replaced with create_before_destroy, the instance named is the one it "+
				"replaces: names are unique per network, so give the replacement another name (or leave "+
				"create_before_destroy out). Otherwise, to manage the existing instance, import it (NAME being this "+
				"resource's name in the configuration):\n\n"+
				"  terraform import %s.NAME %s/%s/%s\n\nor give this instance another name.",
				InstanceTypeName, taken.OrganizationID, taken.ProjectID, taken.InstanceID))}
	case errors.As(err, &quota) && quota.Charged:
		return diag.Diagnostics{Error(summary, quota.Error()+". The instance is unchanged.",
			"Release quota elsewhere, or ask the platform operator to raise "+quotaNamed(err)+".")}
	case errors.As(err, &quota):
		return diag.Diagnostics{Error(summary, quota.Error()+". Nothing was created.",
			"Delete instances you no longer need, choose a smaller flavor, or ask the platform operator to raise "+
				quotaNamed(err)+".")}
	case errors.As(err, &inconsistent):
		return diag.Diagnostics{Error(summary, inconsistent.Error()+".",
			"Terraform will not guess which server is the instance. Delete the servers that are not the instance, "+
				"or remove the tag from them, then run Terraform again.")}
	case errors.As(err, &failed):
		return diag.Diagnostics{Error(summary, failed.Error()+".",
			"The instance is recorded in the state as tainted: the next apply replaces it. If it fails again, "+
				"report the instance ID to the platform operator.")}
	case errors.As(err, &refusal):
		// The reason already says what to do instead.
		return diag.Diagnostics{Error(summary, sentence(refusal.Reason), "")}
	case errors.As(err, &attached):
		return diag.Diagnostics{AttributeError(path.Root(string(compute.FieldVolumeIDs)), summary,
			sentence(attached.Error())+" A volume is attached to one instance at a time. Nothing was sent for this instance.",
			"Remove the volume from the other instance's volume_ids (in this configuration, or wherever that instance "+
				"is managed) and apply again. When both changes are in one apply, this instance waits while the other "+
				"lets the volume go, but only a few seconds for it to start: Terraform does not order the two updates, "+
				"so if the other's waited on something else, this apply stops here while the other's goes through, "+
				"and the next apply attaches the volume. To keep data across an instance's replacement, let Terraform destroy the old "+
				"instance first (no create_before_destroy on it): the volume moves to the replacement in the same apply.")}
	case errors.As(err, &attachment):
		return diag.Diagnostics{AttributeError(path.Root(string(compute.FieldVolumeIDs)), summary, sentence(attachment.Error()),
			attachmentRemedy(attachment))}
	case errors.Is(err, compute.ErrNotFound):
		return diag.Diagnostics{Error(summary, "The instance does not exist.",
			"Check the instance ID, and that the provider is configured for the instance's organization and project.")}
	default:
		return Cloud(summary, err)
	}
}

// InstanceLeftOut is the warning of a list that leaves out an instance because more
// than one server claims it (the conflict says which): a look-up will not guess.
func InstanceLeftOut(conflict error) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Instance left out: more than one server claims it", conflict.Error())
}

// InstanceAPIMismatch says why the provider will not manage an instance another
// instance back end made.
func InstanceAPIMismatch(name, id, made, configured string) diag.Diagnostic {
	return Error("Instance made through another instance API",
		fmt.Sprintf("Instance %q (%s) was created with instance_api = %q, but the provider is configured with "+
			"instance_api = %q. Each API manages only its own instances: compute's API does not know instances made "+
			"directly on region's servers, and region's server API cannot manage an instance compute made (compute "+
			"would put back a server deleted behind its back). Nothing was changed.", name, id, made, configured),
		fmt.Sprintf("Keep instance_api = %q for this configuration (with a token that may use it). To move the "+
			"instance to the other API, destroy it with the old setting and create it again with the new one.", made))
}

// quotaNamed names the quota a refusal's body names ("the `servers` quota"), or
// "the quota" when it names none.
func quotaNamed(err error) string {
	if kind := cloud.Classify(err).Quota; kind != "" {
		return "the `" + kind + "` quota"
	}

	return "the quota"
}

// sentence shows an error, which Go words as a clause, as a sentence.
func sentence(clause string) string {
	if clause == "" {
		return clause
	}

	return strings.ToUpper(clause[:1]) + clause[1:] + "."
}

// attachmentRemedy is what follows a failed attachment or detachment, and what works.
// The state keeps the failed row, so the next plan reads the attachments anew and
// its apply sends the volumes again, except on a create, which Terraform taints.
func attachmentRemedy(failed *compute.AttachmentFailedError) string {
	const report = " If it fails again, report the instance and volume IDs to the platform operator."

	if failed.Detaching {
		return "The volume is still on the instance, which no longer asks for it; region will not delete the volume " +
			"while it is. The next apply asks compute again to take it off." + report
	}

	return "If the instance was just created, Terraform records it as tainted and the next apply replaces it, " +
		"with a new disk; to keep it, run `terraform untaint` on it first. Otherwise the instance stays in the state " +
		"with the volume still asked for, and the next apply asks for the attachment again. Or remove the volume " +
		"from volume_ids." + report
}
