package validators

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// httpURLPattern accepts an absolute http or https URL with a host: what region's
// image import can fetch a disk image from.
var httpURLPattern = regexp.MustCompile(`^https?://[^/?#\s]+[^\s]*$`)

// HTTPURL rejects, at plan, a value that is not an http or https URL.
func HTTPURL() validator.String {
	return stringvalidator.RegexMatches(httpURLPattern, "must be an http or https URL such as https://images.example.com/disk.raw")
}
