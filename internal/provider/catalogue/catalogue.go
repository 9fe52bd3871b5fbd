// Package catalogue serves the read-only look-ups of what a Unikorn organization can
// use: its regions, and each region's flavors and images, narrowed by filters.
package catalogue

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// source is what every data source of the package is: a look-up of one
// organization's view of the catalogue.
type source struct {
	family.DataSource
}

func newSource(name, looks string) source {
	return source{family.DataSource{Name: name, Looks: looks}}
}

// view is the organization whose view of the catalogue a look-up reads, which every
// look-up's model embeds.
type view struct {
	OrganizationID types.String `tfsdk:"organization_id"`
}

func (v *view) viewed() *view { return v }

// inRegion is what a look-up of one region's catalogue names.
type inRegion struct {
	view

	RegionID types.String `tfsdk:"region_id"`
}

// begin starts a read: the configuration into m, and the organization whose view to
// read, which m's organization_id names or the provider's, and which m then shows. It
// reports false, with diagnostics, when the read cannot go on.
func (s *source) begin(ctx context.Context, config tfsdk.Config, m interface{ viewed() *view }, diags *diag.Diagnostics) (string, bool) {
	if !s.Begin(ctx, config, m, diags) {
		return "", false
	}

	v := m.viewed()

	organization := s.Organization(v.OrganizationID, diags)
	if diags.HasError() {
		return "", false
	}

	v.OrganizationID = types.StringValue(organization)

	return organization, true
}

// failed reports a listing the catalogue refused.
func (s *source) failed(err error) diag.Diagnostic {
	return diagnostic.APIError("Unable to "+s.Looks, err)
}

// matching is what a look-up of a region's flavors or images answers: those of objects
// that matches keeps, as model shows them, in the catalogue's order. A name asked for
// that no object carries at all is an error on name, which lists the names there are:
// a typo, unlike a filter that matches nothing, should not pass for an empty answer.
func matching[T, M any](objects []T, noun string, name types.String, nameOf func(*T) string, matches func(*T) bool,
	model func(*T) M, diags *diag.Diagnostics,
) []M {
	kept := []M{}
	names := make([]string, len(objects))

	for i := range objects {
		names[i] = nameOf(&objects[i])

		if matches(&objects[i]) {
			kept = append(kept, model(&objects[i]))
		}
	}

	if wanted := name.ValueString(); wanted != "" && !slices.Contains(names, wanted) {
		diags.Append(diagnostic.NoneNamed(path.Root("name"), noun, wanted, names))
	}

	return kept
}

// organizationIDAttribute is the optional scope every catalogue look-up takes.
func organizationIDAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "ID of the organization whose view of the catalogue to read. " +
			"Defaults to the provider's `organization_id`.",
		Validators: []validator.String{validators.UUID()},
	}
}

// regionIDAttribute is the region a flavor or image look-up reads.
func regionIDAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "ID of the region to read, as listed by the `unikorn_regions` data source.",
		Validators:          []validator.String{validators.UUID()},
	}
}
