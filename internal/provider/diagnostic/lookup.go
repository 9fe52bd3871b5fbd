package diagnostic

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// Lookup points a look-up data source that found no single object of the kind noun at
// the attribute that selected it (`id`, or what names the object: `name`, a user's
// `subject`), says where it looked (the scope the selector searched: a project, a
// network, an organization), and what to do. narrowing names the data source's
// attributes, besides those of the scope, that narrow a look-up by name.
func Lookup(noun string, narrowing []string, err error) diag.Diagnostic {
	title := strings.ToUpper(noun[:1]) + noun[1:]

	var lookupErr *cloud.LookupError
	if !errors.As(err, &lookupErr) {
		return APIError("Unable to read the "+noun, err)
	}

	problem := sentence(err.Error())
	selector := lookupErr.Selector
	named := selector.Named()

	switch {
	case selector.ID != "" && selector.OrganizationID != "":
		return AttributeError(path.Root("id"), title+" not found", problem,
			"Check the ID, and that the "+noun+" is in organization "+selector.OrganizationID+
				" (organization_id; where it is not set, the provider's is used).")
	case selector.ID != "":
		return AttributeError(path.Root("id"), title+" not found", problem,
			"Check the ID, and that the provider's token is a member of the "+noun+"'s project.")
	case len(lookupErr.Matches) == 0:
		scope := scopeAttributes(selector, narrowing)

		return AttributeError(path.Root(named), title+" not found", problem+" "+Names(selector.Name, lookupErr.Names),
			"Check the "+named+" and the scope searched ("+strings.Join(scope, ", ")+")"+defaulted(scope)+".")
	default:
		narrow := ""
		for _, attribute := range narrowing {
			narrow += ", or narrow the look-up with `" + attribute + "`"
		}

		return AttributeError(path.Root(named), "Ambiguous "+noun+" "+named, problem,
			"Look the "+noun+" up by `id` (one of those above) instead"+narrow+
				", or rename the others so that the "+named+" is unique.")
	}
}

// scopeAttributes are the attributes that set the scope a look-up by name searched,
// and then those that narrow it.
func scopeAttributes(selector cloud.Selector, narrowing []string) []string {
	var attributes []string

	for _, scope := range []struct{ attribute, id string }{
		{"organization_id", selector.OrganizationID}, {"project_id", selector.ProjectID}, {"network_id", selector.NetworkID},
	} {
		if scope.id != "" {
			attributes = append(attributes, scope.attribute)
		}
	}

	for _, attribute := range narrowing {
		if !slices.Contains(attributes, attribute) {
			attributes = append(attributes, attribute)
		}
	}

	return attributes
}

// defaulted says which of the scope's attributes default to the provider's.
func defaulted(scope []string) string {
	var defaults []string

	for _, attribute := range []string{"organization_id", "project_id"} {
		if slices.Contains(scope, attribute) {
			defaults = append(defaults, attribute)
		}
	}

	switch len(defaults) {
	case 0:
		return ""
	case 1:
		return "; where " + defaults[0] + " is not set, the provider's is used"
	default:
		return "; where " + strings.Join(defaults, " and ") + " are not set, the provider's are used"
	}
}

// namesListed caps the names a diagnostic lists: all of them up to this many, else
// the nearest to the name asked for.
const namesListed = 8

// Names says which names there are, for a look-up by a name that none has: every one
// when there are few, otherwise the nearest to wanted (fewest edits, case ignored),
// so that a typo is answered with its fix. Each is quoted, as the configuration
// writes it.
func Names(wanted string, names []string) string {
	names = slices.Compact(slices.Sorted(slices.Values(names)))

	if len(names) == 0 {
		return "There are none."
	}

	quote := func(names []string) string {
		quoted := make([]string, len(names))
		for i, name := range names {
			quoted[i] = strconv.Quote(name)
		}

		return strings.Join(quoted, ", ")
	}

	if len(names) <= namesListed {
		return "There are: " + quote(names) + "."
	}

	nearest := slices.Clone(names)
	distance := make(map[string]int, len(names))

	for _, name := range names {
		distance[name] = edits(strings.ToLower(wanted), strings.ToLower(name))
	}

	slices.SortStableFunc(nearest, func(a, b string) int { return distance[a] - distance[b] })

	return fmt.Sprintf("The nearest of the %d there are: %s.", len(names), quote(nearest[:namesListed]))
}

// edits is the Levenshtein distance between a and b, in runes.
func edits(a, b string) int {
	ar, br := []rune(a), []rune(b)
	previous := make([]int, len(br)+1)
	current := make([]int, len(br)+1)

	for j := range previous {
		previous[j] = j
	}

	for i := 1; i <= len(ar); i++ {
		current[0] = i

		for j := 1; j <= len(br); j++ {
			cost := 1
			if ar[i-1] == br[j-1] {
				cost = 0
			}

			current[j] = min(previous[j]+1, current[j-1]+1, previous[j-1]+cost)
		}

		previous, current = current, previous
	}

	return previous[len(br)]
}

// NoneNamed is the warning of a data source whose name filter matches nothing the
// cloud has: its result is empty, as a filter's may be, and the warning lists the
// names there are, for the error an index into that empty result then gives.
func NoneNamed(p path.Path, noun, wanted string, names []string) diag.Diagnostic {
	return diag.NewAttributeWarningDiagnostic(p, "No "+noun+" is named "+strconv.Quote(wanted),
		detail("No "+noun+" visible to this token is named "+strconv.Quote(wanted)+", so the result is empty. "+Names(wanted, names),
			"Correct the name if it is mistyped."))
}

// NoneNamedAmong is NoneNamed for a catalogue's name filter (p): nothing when the filter
// is unset or one of names is wanted.
func NoneNamedAmong(p path.Path, noun, wanted string, names []string) diag.Diagnostics {
	if wanted == "" || slices.Contains(names, wanted) {
		return nil
	}

	return diag.Diagnostics{NoneNamed(p, noun, wanted, names)}
}
