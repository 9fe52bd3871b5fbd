// Package validators holds the attribute validators the framework-validators module
// does not provide.
package validators

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// PositiveDuration accepts a Go duration string greater than zero, such as "90s" or
// "2m30s".
func PositiveDuration() validator.String {
	return positiveDuration{`value must be a positive duration such as "30s" or "2m"`}
}

type positiveDuration struct{ Described }

func (positiveDuration) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}

	value := req.ConfigValue.ValueString()

	d, err := time.ParseDuration(value)
	if err != nil || d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path,
			"Invalid duration",
			fmt.Sprintf("%q is not a positive duration. Use a number with a unit, such as \"30s\", \"2m\" or \"1m30s\".", value),
		)
	}
}
