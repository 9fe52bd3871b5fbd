package family

import "github.com/hashicorp/terraform-plugin-framework/types"

// OptionalString is a value the cloud may leave out: null when it has not given one,
// rather than "", so that a configuration that leaves the attribute out plans no change.
func OptionalString(value string) types.String {
	if value == "" {
		return types.StringNull()
	}

	return types.StringValue(value)
}
