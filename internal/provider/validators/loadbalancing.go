package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
)

var _ validator.String = ipv4Address{}

// IPv4Address accepts an IPv4 address only in the form region writes it, so that the
// state never differs from the configuration.
func IPv4Address() validator.String { return ipv4Address{"an IPv4 address such as 10.0.0.10"} }

type ipv4Address struct{ Described }

func (ipv4Address) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}

	value := req.ConfigValue.ValueString()

	switch canonical, ok := loadbalancing.CanonicalAddress(value); {
	case !ok:
		resp.Diagnostics.Append(diagnostic.AttributeError(req.Path, "Invalid IPv4 address",
			fmt.Sprintf("%q is not an IPv4 address.", value), "Write it like 10.0.0.10."))
	case canonical != value:
		resp.Diagnostics.Append(diagnostic.AttributeError(req.Path, "Invalid IPv4 address",
			fmt.Sprintf("%q is an IPv4 address written in another form than region writes it.", value),
			fmt.Sprintf("Write it as %s.", canonical)))
	}
}
