package validators

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
)

// The validators below run the façade's own rules at plan time, so that a value is
// judged by exactly one implementation whether Terraform or the façade sees it first.

var (
	_ validator.String = imageName{}
	_ validator.Map    = tagNames{}
)

// ImageName rejects an image name region would refuse.
func ImageName() validator.String { return imageName{} }

type imageName struct{}

func (imageName) Description(context.Context) string {
	return "must be a valid image name (a Kubernetes label value)"
}

func (v imageName) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (imageName) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}

	if err := compute.ValidateImageName(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid image name", err.Error())
	}
}

// TagNames rejects tag names in a prefix Unikorn reserves for itself.
func TagNames() validator.Map { return tagNames{} }

type tagNames struct{}

func (tagNames) Description(context.Context) string {
	return "tag names must not use a prefix reserved by Unikorn"
}

func (v tagNames) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (tagNames) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}

	for name := range req.ConfigValue.Elements() {
		if err := compute.ValidateTagName(name); err != nil {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(name), "Invalid tag name", err.Error())
		}
	}
}
