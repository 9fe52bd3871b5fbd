package planning

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Changed names the attributes among names (top-level, in their order) whose planned
// value differs from the prior state's.
func Changed(plan tfsdk.Plan, state tfsdk.State, names []string) ([]string, error) {
	var planned, prior map[string]tftypes.Value

	if err := plan.Raw.As(&planned); err != nil {
		return nil, err
	}

	if err := state.Raw.As(&prior); err != nil {
		return nil, err
	}

	var changed []string

	for _, name := range names {
		if !planned[name].Equal(prior[name]) {
			changed = append(changed, name)
		}
	}

	return changed, nil
}

// Replaced is the warning of a plan that replaces an object for a change of the
// attributes changed, which loses what the object holds: loss says what, as a clause
// ("its server, its disk and its IP addresses are lost").
func Replaced(noun, name, id string, changed []string, loss string) diag.Diagnostic {
	return diag.NewWarningDiagnostic(strings.ToUpper(noun[:1])+noun[1:]+" will be replaced",
		fmt.Sprintf("Changing %s replaces %s %q (%s): %s.", strings.Join(changed, ", "), noun, name, id, loss))
}
