// Package filter matches API objects against the optional filter attributes of a
// data source. A null filter matches everything, so a look-up narrows only by what
// the configuration says.
package filter

import "github.com/hashicorp/terraform-plugin-framework/types"

// CatalogueRule is what a catalogue data source's filters do together, said once for
// every catalogue whose name filter warns of a name nothing has (see
// diagnostic.NoneNamedAmong).
const CatalogueRule = "Every filter that is set must match; filters that match nothing give an empty list, " +
	"not an error, and a `name` no class has at all adds a warning that lists the names there are."

// String matches when want is null or equal to got.
func String(want types.String, got string) bool {
	return want.IsNull() || want.IsUnknown() || want.ValueString() == got
}

// AtLeast matches when want is null or got is at least want.
func AtLeast(want types.Int64, got int) bool {
	return want.IsNull() || want.IsUnknown() || int64(got) >= want.ValueInt64()
}

// Present matches when want is null or says the same as present.
func Present(want types.Bool, present bool) bool {
	return want.IsNull() || want.IsUnknown() || want.ValueBool() == present
}
