package diagnostic

import (
	"errors"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
)

// Identity turns an error of the identity façade into a diagnostic, with the façade's
// own words for what it knows better than an answer's class does; every other failure
// reads as Cloud words it. summary names the operation that failed.
func Identity(summary string, err error) diag.Diagnostics {
	var (
		adopted   *identity.AdoptedError
		creation  *identity.ProjectCreationError
		held      *identity.ProjectHeldError
		lookup    *identity.LookupError
		notJoined *identity.GroupsNotJoinedError
	)

	switch {
	case errors.As(err, &adopted):
		// The account exists and is kept; only its token is lost.
		return diag.Diagnostics{diag.NewWarningDiagnostic("Service account created without its token", err.Error()+"\n\n"+
			"Change `rotation_trigger` on this resource to issue a new token.")}
	case errors.As(err, &creation):
		return diag.Diagnostics{Error(summary, err.Error(),
			"Use a token of a member of a group that holds the organization administrator role (`administrator`) "+
				"in this organization, or ask an administrator to create the project.")}
	case errors.As(err, &held):
		return diag.Diagnostics{Error(summary, err.Error(),
			"Delete what still references the project, then run the destroy again.")}
	case errors.As(err, &lookup):
		return diag.Diagnostics{Lookup(lookup.Kind, nil, err)}
	case errors.As(err, &notJoined):
		return diag.Diagnostics{AttributeError(path.Root("group_ids"), summary,
			"Identity did not put "+notJoined.Member+" in the groups "+
				strings.Join(notJoined.Missing, ", ")+": it ignores IDs that name no group of the organization.",
			"Set group_ids to groups of the organization (`unikorn_group.<name>.id`, or the `unikorn_group` data "+
				"source), then apply again.")}
	default:
		return Cloud(summary, err)
	}
}
