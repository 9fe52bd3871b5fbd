// Package networking serves what a compute instance is placed on and protected by:
// networks, security groups and SSH certificate authorities, each as a resource, a
// data source that looks it up by ID or by name within a project, and a list resource.
package networking

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

var (
	pathOrganizationID = path.Root("organization_id")
	pathProjectID      = path.Root("project_id")
)

// kind is what sets one look-up data source apart from the others; everything else,
// from the schema's common attributes to the error for an ambiguous name, is shared.
type kind[T any] struct {
	typeName    string
	noun        string
	description string
	// attributes are the kind's own, beside those every look-up has.
	attributes map[string]schema.Attribute
	// narrowing names further attributes that narrow a look-up by name (and so make
	// no sense with an ID).
	narrowing []string

	newModel func() model[T]
	find     func(networking.Objects, context.Context, networking.Selector) (*T, error)
	metadata func(*T) *cloud.ProjectMetadata
}

// model is the state of one kind: the common attributes plus its own.
type model[T any] interface {
	common() *commonModel
	// narrow adds the kind's narrowing attributes to a look-up by name.
	narrow(*networking.Selector)
	// set fills in the kind's own attributes.
	set(context.Context, *T, *diag.Diagnostics)
}

// commonModel holds the attributes every look-up has.
type commonModel struct {
	family.Metadata

	ID             types.String `tfsdk:"id"`
	OrganizationID types.String `tfsdk:"organization_id"`
	ProjectID      types.String `tfsdk:"project_id"`
}

func (c *commonModel) common() *commonModel { return c }

func (c *commonModel) setScope(metadata *cloud.ProjectMetadata) {
	c.ID = types.StringValue(metadata.ID)
	c.OrganizationID = types.StringValue(metadata.OrganizationID)
	c.ProjectID = types.StringValue(metadata.ProjectID)
}

// setFound fills a look-up's common attributes (see family.Metadata.Found).
func (c *commonModel) setFound(ctx context.Context, metadata *cloud.ProjectMetadata, diags *diag.Diagnostics) {
	c.setScope(metadata)
	c.Found(ctx, metadata.Name, metadata.Description, cloud.TagMap(metadata.Tags), diags)
}

// setKept fills a resource's common attributes (see family.Metadata.Set).
func (c *commonModel) setKept(ctx context.Context, metadata *cloud.ProjectMetadata, diags *diag.Diagnostics) {
	c.setScope(metadata)
	c.Set(ctx, metadata.Name, metadata.Description, cloud.TagMap(metadata.Tags), diags)
}

var (
	_ datasource.DataSourceWithConfigure        = (*dataSource[networking.Network])(nil)
	_ datasource.DataSourceWithConfigValidators = (*dataSource[networking.Network])(nil)
)

// dataSource looks one object of a kind up, by ID or by name.
type dataSource[T any] struct {
	family.DataSource

	kind kind[T]
}

func newDataSource[T any](k kind[T]) *dataSource[T] {
	return &dataSource[T]{DataSource: family.DataSource{Name: k.typeName, Looks: "look the " + k.noun + " up"}, kind: k}
}

func (d *dataSource[T]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	noun := d.kind.noun

	attributes := map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "ID of the " + noun + ". Give either this or `name`.",
			Validators:          []validator.String{validators.UUID()},
		},
		"name": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Name of the " + noun + ". Names need not be unique, so a look-up by name " +
				"fails unless exactly one " + noun + " in the project has it.",
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"organization_id": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Organization to search by name; defaults to the provider's `organization_id`. " +
				"With `id` it is read from the " + noun + ".",
			Validators: []validator.String{validators.UUID()},
		},
		"project_id": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Project to search by name; defaults to the provider's `project_id`. " +
				"With `id` it is read from the " + noun + ".",
			Validators: []validator.String{validators.UUID()},
		},
		"description": schema.StringAttribute{
			Computed: true, MarkdownDescription: "Description of the " + noun + "; null when it has none.",
		},
		"tags": schema.MapAttribute{
			Computed: true, ElementType: types.StringType,
			MarkdownDescription: "Tags of the " + noun + ", by name.",
		},
	}
	maps.Copy(attributes, d.kind.attributes)

	resp.Schema = schema.Schema{MarkdownDescription: d.kind.description, Attributes: attributes}
}

func (d *dataSource[T]) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return family.ByIDOrName("name", append([]string{"organization_id", "project_id"}, d.kind.narrowing...)...)
}

func (d *dataSource[T]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	data := d.kind.newModel()
	if !d.Begin(ctx, req.Config, data, &resp.Diagnostics) {
		return
	}

	common := data.common()
	selector := networking.Selector{ID: common.ID.ValueString()}

	// An ID names one object wherever it is, so only a name is searched in a scope.
	if selector.ID == "" {
		selector.Name = common.Name.ValueString()
		selector.OrganizationID = d.Provider.Organization(common.OrganizationID, pathOrganizationID, &resp.Diagnostics)
		selector.ProjectID = d.Provider.Project(common.ProjectID, pathProjectID, &resp.Diagnostics)
		data.narrow(&selector)
	}

	if resp.Diagnostics.HasError() {
		return
	}

	object, err := d.kind.find(d.Provider.Networking, ctx, selector)
	if err != nil {
		resp.Diagnostics.Append(diagnostic.Lookup(d.kind.noun, d.kind.narrowing, err))

		return
	}

	common.setFound(ctx, d.kind.metadata(object), &resp.Diagnostics)
	data.set(ctx, object, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, data)...)
}
