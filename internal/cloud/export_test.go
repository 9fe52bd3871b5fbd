package cloud

import "github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"

// The conversions to and from the wire, for the tests of cloud_test, which reach
// cloudtest.
var (
	SettingsWire    = Settings.wire
	FailureFromWire = failureFromWire
	Classes         = classes
)

// WireClasses are every class of the wire client's.
func WireClasses() []unikorn.Class {
	var all []unikorn.Class
	for class := unikorn.ClassOther; class <= unikorn.ClassOverloaded; class++ {
		all = append(all, class)
	}

	return all
}
