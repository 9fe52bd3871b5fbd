// Package planning holds the rules every Terraform type follows when it plans: what
// it does with values not yet known, where a default may fill in a value, and when a
// refusal of an in-place change applies. Each rule is written here once so that every
// type, and every type added later, plans alike.
package planning

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// elements is what sets and lists of strings share.
type elements interface {
	IsNull() bool
	IsUnknown() bool
	Elements() []attr.Value
}

// KnownStrings returns the known elements of a set or list of strings, and whether
// any is not yet known. A collection can be known while an element is not: the ID of
// an object created in the same apply, say, next to IDs written out. A plan-time check
// judges only the known elements (or none, where it needs them all) and leaves the rest
// to the plan made again when Terraform applies, in which every element is known. A
// collection unknown as a whole has no known elements and is unknown; a null one has
// none and is known.
func KnownStrings(value elements) (known []string, unknown bool) {
	if value.IsNull() {
		return nil, false
	}

	if value.IsUnknown() {
		return nil, true
	}

	known = make([]string, 0, len(value.Elements()))

	for _, element := range value.Elements() {
		s, ok := element.(types.String)

		switch {
		case !ok || s.IsUnknown():
			unknown = true
		case !s.IsNull():
			known = append(known, s.ValueString())
		}
	}

	return known, unknown
}

// KnownStringMap is KnownStrings for a map of strings: its known entries, and whether
// any value (or the whole map) is not yet known.
func KnownStringMap(value types.Map) (known map[string]string, unknown bool) {
	if value.IsNull() {
		return nil, false
	}

	if value.IsUnknown() {
		return nil, true
	}

	known = make(map[string]string, len(value.Elements()))

	for key, element := range value.Elements() {
		s, ok := element.(types.String)

		switch {
		case !ok || s.IsUnknown():
			unknown = true
		case !s.IsNull():
			known[key] = s.ValueString()
		}
	}

	return known, unknown
}

// Default is the planned value of an optional and computed string that defaults to
// fallback (the provider's organization, say): fallback only where the configuration
// leaves the attribute out. A configured value stands even while it is not yet known
// (the ID of a project created in the same apply): Terraform requires the plan to
// keep what the configuration says, and the value it takes is known at apply. An
// empty fallback leaves planned as it is.
func Default(config, planned types.String, fallback string) types.String {
	if !config.IsNull() || fallback == "" || !planned.IsUnknown() {
		return planned
	}

	return types.StringValue(fallback)
}
