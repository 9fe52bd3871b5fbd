package diagnostic

import (
	"errors"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// Lookup points a look-up data source that found no single object of the kind noun
// at the attribute that selected it (`id` or `name`), and says what to do. narrowing
// names the data source's attributes, besides organization_id and project_id, that
// narrow a look-up by name.
func Lookup(noun string, narrowing []string, err error) diag.Diagnostic {
	title := strings.ToUpper(noun[:1]) + noun[1:]

	var lookupErr *cloud.LookupError
	if !errors.As(err, &lookupErr) {
		return APIError("Unable to read the "+noun, err)
	}

	problem := sentence(err.Error())

	switch {
	case lookupErr.Selector.ID != "":
		return AttributeError(path.Root("id"), title+" not found", problem,
			"Check the ID, and that the provider's token is a member of the "+noun+"'s project.")
	case len(lookupErr.Matches) == 0:
		return AttributeError(path.Root("name"), title+" not found", problem,
			"Check the name and the scope searched ("+strings.Join(append([]string{"organization_id", "project_id"}, narrowing...), ", ")+
				"); where organization_id and project_id are not set, the provider's are used.")
	default:
		narrow := ""
		for _, attribute := range narrowing {
			narrow += ", or narrow the look-up with `" + attribute + "`"
		}

		return AttributeError(path.Root("name"), "Ambiguous "+noun+" name", problem,
			"Look the "+noun+" up by `id` (one of those above) instead"+narrow+
				", or rename the others so that the name is unique.")
	}
}
