package diagnostic

import (
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
)

// Image turns an error of the image façade (an image imported from a URL, or made of
// an instance's disk) into diagnostics that say what is left behind and what to do.
// A snapshot's errors are also compute's, whose instance back end makes it, so the
// rest read as Compute words them.
func Image(summary string, err error) diag.Diagnostics {
	var (
		name     *image.NameError
		snapshot *image.SnapshotFailedError
		imported *image.ImportFailedError
	)

	switch {
	case errors.As(err, &name):
		return diag.Diagnostics{diag.NewAttributeErrorDiagnostic(path.Root("name"), "Invalid image name", name.Error())}
	case errors.As(err, &snapshot):
		return diag.Diagnostics{Error(summary, sentence(snapshot.Error()),
			"Delete the failed image and try again; if it fails again, report the instance ID to the platform operator.")}
	case errors.As(err, &imported) && imported.Removed:
		return diag.Diagnostics{Error(summary, sentence(imported.Error())+" Nothing is left behind.",
			"Check that the URI serves a raw disk image (not qcow2) that region can reach, then apply again.")}
	case errors.As(err, &imported):
		return diag.Diagnostics{Error(summary, sentence(imported.Error()),
			"Terraform keeps the failed image in its state as tainted: the next apply deletes and replaces it. "+
				"Check that the URI serves a raw disk image (not qcow2) that region can reach.")}
	default:
		return Compute(summary, err)
	}
}
