package diagnostic

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// Held turns a delete refused because something still holds the object, with
// nothing that holds it going away (*cloud.HeldError), into one diagnostic that names
// the holders, says why Terraform ordered the apply so, and gives both remedies; any
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

// HeldRemedy gives the ways out. Running the same apply again meets the same order
// and the same refusal; what releases the object is applying the updates of what
// refers to it on their own first. create_before_destroy makes Terraform order them
// so by itself.
func HeldRemedy(kind string) string {
	return "To finish, release the " + kind + " first, then run `terraform apply` again, which deletes it:\n" +
		"  - apply only the updates of the resources that refer to it, " +
		"`terraform apply -target=ADDRESS` for each (the resources that manage what is named above), " +
		"then `terraform apply`; or\n" +
		"  - put the " + kind + "'s resource back in the configuration, leaving the references out, and apply; " +
		"then remove it and apply again.\n\n" +
		"To remove such objects in one apply, give the " + kind + "'s resource `lifecycle { create_before_destroy = true }` " +
		"while it is still in the configuration: Terraform then updates what refers to it before it deletes it."
}

func heldObject(held *cloud.HeldError) string {
	if held.Name == "" {
		return held.ID
	}

	return fmt.Sprintf("%q (%s)", held.Name, held.ID)
}
