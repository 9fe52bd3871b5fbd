package private

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

const deletingKey = "deleting"

// KeepDeleting records whether the last read showed the object being deleted (see
// cloud.Deleting), for the plan that follows it: Read may not change the plan, and
// the object's attributes say nothing of it.
func KeepDeleting(ctx context.Context, w Writer, deleting bool, diags *diag.Diagnostics) {
	var value []byte
	if deleting {
		value = []byte("true")
	}

	diags.Append(w.SetKey(ctx, deletingKey, value)...)
}

// Deletion says why an object of a type can be being deleted, and what holds it.
type Deletion struct {
	// Noun names the kind: "network", "project".
	Noun string
	// Holds says what the cloud waits for before the object is gone, if anything
	// more than its own deprovisioning: identity holds a project's deletion while
	// other services' objects reference it.
	Holds string
}

// PlanDeleting plans the replacement of an object whose last read showed it being
// deleted (an out-of-band delete, or a destroy that gave up waiting): it will be
// gone whatever the configuration says, and what the configuration asks is an
// object that exists, so the apply deletes it (asking again is harmless, and its
// delete waits until it is gone) and creates it anew. Left as it was, the plan would
// say "No changes" and what the configuration builds on it would be refused. It
// reports whether it did. The ID becomes unknown, which is what makes Terraform
// replace: it replaces only for a path whose planned value differs from the state.
func (d Deletion) PlanDeleting(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) bool {
	if req.Plan.Raw.IsNull() || req.State.Raw.IsNull() {
		return false
	}

	raw, diags := req.Private.GetKey(ctx, deletingKey)
	if resp.Diagnostics.Append(diags...); len(raw) == 0 {
		return false
	}

	var id types.String

	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), types.StringUnknown())...)
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("id"))

	holds := ""
	if d.Holds != "" {
		holds = " " + d.Holds
	}

	resp.Diagnostics.AddWarning(fmt.Sprintf("The %s is being deleted", d.Noun),
		fmt.Sprintf("The %s %s is being deleted: the cloud accepted a delete of it (outside Terraform, or by a "+
			"destroy that stopped waiting), and it is not gone yet.%s Terraform replaces it: the apply waits "+
			"until it is gone, then creates it again, and replaces what is built on it. To let it go instead, "+
			"remove it from the configuration.", d.Noun, id.ValueString(), holds))

	return true
}
