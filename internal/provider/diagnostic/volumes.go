package diagnostic

import (
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/volumes"
)

// Volumes turns an error of the volume façade into diagnostics: a problem found
// before anything was sent on the attribute at fault, a refused quota charge; the
// failures every family shares (waits, held deletes, API answers) read as Cloud
// words them.
func Volumes(summary string, err error) diag.Diagnostics {
	var (
		problem *volumes.Problem
		quota   *volumes.QuotaError
	)

	switch {
	case errors.As(err, &problem):
		return diag.Diagnostics{VolumeProblem(path.Root(string(problem.Field)), problem)}
	case errors.As(err, &quota):
		return diag.Diagnostics{Error(summary, sentence(quota.Error())+" Nothing was created.",
			"Choose a smaller size_gib, delete volumes you no longer need, or ask the platform operator to raise "+
				quotaNamed(err)+".")}
	default:
		return Cloud(summary, err)
	}
}

// VolumeProblem is a reason region or compute would refuse a volume or its
// attachment, on the attribute at p.
func VolumeProblem(p path.Path, problem *volumes.Problem) diag.Diagnostic {
	return AttributeError(p, problem.Summary, problem.Detail, problem.Remedy)
}

// AttachedVolumeReplaced warns that an attached volume's replacement needs the new
// volume made first: Terraform deletes a replaced object before it updates the objects
// that refer to it, and region refuses to delete a volume an instance holds.
func AttachedVolumeReplaced(name, id string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Attached volume will be replaced",
		"Volume \""+name+"\" ("+id+") is attached to an instance. Terraform deletes a replaced volume before it "+
			"updates the instances whose volume_ids name it, and region refuses to delete a volume an instance "+
			"holds, so unless that instance is itself replaced in this apply, the apply stops there. Give the "+
			"volume `lifecycle { create_before_destroy = true }`: the new volume is made first, the instance's "+
			"volume_ids moves to it (the old volume is detached), and the old volume is deleted last.")
}
