package validators

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// imageDescriptionNotKept refuses an image's description at plan: region keeps none
// (its images have no description, imported or made from an instance), so a value
// would come back empty after apply, which Terraform takes for a provider's bug.
type imageDescriptionNotKept struct{ Described }

// ImageDescription refuses any description of an image, saying why and what to do.
func ImageDescription() validator.String {
	return imageDescriptionNotKept{Described("must not be set: Unikorn keeps no description of an image")}
}

func (v imageDescriptionNotKept) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}

	resp.Diagnostics.AddAttributeError(req.Path, "Image description not kept",
		"Unikorn keeps no description of an image: region stores an image's name, tags and "+
			"specification, and drops a description it is sent. Remove `description`; to "+
			"say what the image is, give it a tag, e.g. tags = { purpose = \"…\" }.")
}
