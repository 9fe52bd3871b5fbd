package validators

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
)

// The validators below run the façade's own rules at plan time, so that a value is
// judged by exactly one implementation whether Terraform or the façade sees it first.

var (
	_ validator.String = name{}
	_ validator.Map    = tagNames{}
)

// NameRule is Unikorn's name rule in words, as Markdown, for an attribute's description.
var NameRule = strings.ReplaceAll(cloud.NameRule, "'", "`")

// Name rejects, naming the attribute, a name Unikorn would refuse for an object of
// noun (e.g. "network"): core's one rule for the name of every object (see
// cloud.ValidateName).
func Name(noun string) validator.String {
	return name{Described("must be a valid " + noun + " name (a Kubernetes label value)"), noun}
}

type name struct {
	Described

	noun string
}

func (v name) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}

	if err := cloud.ValidateName(v.noun, req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+v.noun+" name", err.Error())
	}
}

// TagNames rejects tag names in a prefix Unikorn reserves for itself.
func TagNames() validator.Map {
	return tagNames{"tag names must not use a prefix reserved by Unikorn"}
}

type tagNames struct{ Described }

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
