package diagnostic

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// Held turns a delete refused because something still holds the object, with
// nothing that holds it going away (*cloud.HeldError), into one diagnostic that names
// the holders, says why Terraform ordered the apply so, and gives the remedies that converge; any
// other error goes to otherwise, the family's own diagnostics.
func Held(summary string, err error, otherwise func(string, error) diag.Diagnostics) diag.Diagnostics {
	var held *cloud.HeldError
	if !errors.As(err, &held) {
		return otherwise(summary, err)
	}

	return diag.Diagnostics{Error(summary, HeldProblem(held), HeldRemedy(held.Kind))}
}

// HeldProblem says what holds the object, as far as the token can see, and why
// Terraform met it.
func HeldProblem(held *cloud.HeldError) string {
	return sentence(fmt.Sprintf("the cloud refuses to delete %s %s, and nothing that uses it is being deleted, so "+
		"waiting would not help: %v", held.Kind, heldObject(held), held.Err)) + " " +
		sentence("what uses it: "+held.HolderNames()) + " Nothing was deleted.\n\n" +
		"An apply meets this when the configuration removes an object together with the references to it (here, " +
		"the " + held.Kind + " and the references of what is named above to it): Terraform deletes the removed " +
		"object before it updates what still refers to it, so the delete comes first, and the updates wait for it."
}

// HeldRemedy gives the ways out that converge. Running the same apply again meets the
// same order and the same refusal; what releases the object is an apply of the
// updates of what refers to it without its delete. Putting the object back for one
// apply always gives that; an apply targeted at the holders gives it only where
// nothing refers to the object's resource any longer, since -target takes in what the
// targets refer to, a resource removed by count or for_each included, and deletes it
// first again. create_before_destroy orders the holders' updates first, but a removed
// object's delete is ordered as its state recorded, so it helps only when applied
// before the removal.
func HeldRemedy(kind string) string {
	return "To finish, release the " + kind + " first; `terraform apply` then deletes it:\n" +
		"  - put the " + kind + "'s resource back as it was (its block, or its count or for_each entry), leave the " +
		"references to it out of the resources that manage what is named above, and run `terraform apply`, which " +
		"updates those and keeps the " + kind + "; then remove the " + kind + " again and run `terraform apply`; or\n" +
		"  - if nothing in the configuration refers to the " + kind + "'s resource any longer, " +
		"`terraform apply -target=ADDRESS` for each resource that manages what is named above, then " +
		"`terraform apply`. A reference that gives nothing still refers to it (`TYPE.NAME[*].id` of a resource " +
		"whose count is 0, a for expression over its for_each): then the targeted apply deletes the " + kind +
		" too, and meets the same refusal.\n\n" +
		"If what is named above is not managed by this configuration, detach it from the " + kind + " or delete it, " +
		"then run `terraform apply` again.\n\n" +
		"Adding create_before_destroy to the " + kind + "'s resource now does not help: Terraform orders the delete " +
		"of an object already removed as its state recorded. To remove such objects in one apply, give the " +
		"resource `lifecycle { create_before_destroy = true }` and apply before removing it: Terraform then " +
		"updates what refers to it before it deletes it."
}

func heldObject(held *cloud.HeldError) string {
	if held.Name == "" {
		return held.ID
	}

	return fmt.Sprintf("%q (%s)", held.Name, held.ID)
}
