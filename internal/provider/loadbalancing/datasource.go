package loadbalancing

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

var (
	_ datasource.DataSourceWithConfigure        = (*dataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*dataSource)(nil)
)

var pathProjectID = path.Root("project_id")

// NewDataSource returns the unikorn_load_balancer data source.
func NewDataSource() datasource.DataSource {
	return &dataSource{family.DataSource{Name: TypeName, Looks: "look the load balancer up"}}
}

// dataSource looks a load balancer up by ID, or by name where exactly one has it.
type dataSource struct {
	family.DataSource
}

func (d *dataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(name string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: about(attributes, name)}
	}

	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up a load balancer, by `id` or by `name` within a project (and, to narrow it, a network).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Optional: true, Computed: true, Validators: []validator.String{validators.UUID()},
				MarkdownDescription: about(attributes, "id") + " Give either this or `name`.",
			},
			"name": schema.StringAttribute{
				Optional: true, Computed: true, Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
				MarkdownDescription: about(attributes, "name") + " A look-up by name fails unless exactly one load " +
					"balancer in the scope searched has it.",
			},
			"organization_id": schema.StringAttribute{
				Optional: true, Computed: true, Validators: []validator.String{validators.UUID()},
				MarkdownDescription: "Organization to search by name; defaults to the provider's `organization_id`. " +
					"With `id` it is read from the load balancer.",
			},
			"project_id": schema.StringAttribute{
				Optional: true, Computed: true, Validators: []validator.String{validators.UUID()},
				MarkdownDescription: "Project to search by name; defaults to the provider's `project_id`. " +
					"With `id` it is read from the load balancer.",
			},
			"network_id": schema.StringAttribute{
				Optional: true, Computed: true, Validators: []validator.String{validators.UUID()},
				MarkdownDescription: about(attributes, "network_id") + " With `name`, only that network is searched.",
			},
			"description":         computed("description"),
			"tags":                schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: about(attributes, "tags")},
			"vip_address":         computed("vip_address"),
			"public_ip_enabled":   schema.BoolAttribute{Computed: true, MarkdownDescription: about(attributes, "public_ip_enabled")},
			"public_ip":           computed("public_ip"),
			"region_id":           computed("region_id"),
			"provisioning_status": computed("provisioning_status"),
			"health_status":       computed("health_status"),
			"listeners": schema.MapNestedAttribute{
				Computed: true, MarkdownDescription: about(attributes, "listeners"),
				NestedObject: schema.NestedAttributeObject{Attributes: listenerDataSourceAttributes()},
			},
		},
	}
}

func listenerDataSourceAttributes() map[string]schema.Attribute {
	describe := func(name string) string { return about(listenerAttributes, name) }
	integer := func(name string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: describe(name)}
	}

	return map[string]schema.Attribute{
		"protocol":             schema.StringAttribute{Computed: true, MarkdownDescription: describe("protocol")},
		"port":                 integer("port"),
		"allowed_cidrs":        schema.SetAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: describe("allowed_cidrs")},
		"idle_timeout_seconds": integer("idle_timeout_seconds"),
		"proxy_protocol_v2":    schema.BoolAttribute{Computed: true, MarkdownDescription: describe("proxy_protocol_v2")},
		"members": schema.SetNestedAttribute{
			Computed: true, MarkdownDescription: describe("members"), CustomType: newMemberSetType(),
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"address": schema.StringAttribute{Computed: true, MarkdownDescription: describe("member_address")},
				"port":    integer("member_port"),
			}},
		},
		"health_check": schema.SingleNestedAttribute{
			Computed: true, MarkdownDescription: describe("health_check"),
			Attributes: map[string]schema.Attribute{
				"interval_seconds":    integer("interval_seconds"),
				"timeout_seconds":     integer("timeout_seconds"),
				"healthy_threshold":   integer("healthy_threshold"),
				"unhealthy_threshold": integer("unhealthy_threshold"),
			},
		},
	}
}

func (d *dataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return family.ByIDOrName("name", "organization_id", "project_id", "network_id")
}

func (d *dataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var data model
	if !d.Begin(ctx, req.Config, &data, &resp.Diagnostics) {
		return
	}

	var lb *loadbalancing.LoadBalancer

	if id := data.ID.ValueString(); id != "" {
		read, err := d.Provider.LoadBalancers.Read(ctx, id)
		if err != nil {
			resp.Diagnostics.Append(diagnostic.LoadBalancing("Unable to read the load balancer", err)...)

			return
		}

		if read == nil {
			resp.Diagnostics.Append(diagnostic.Lookup(noun, narrowing, &cloud.LookupError{Kind: noun, Selector: cloud.Selector{ID: id}}))

			return
		}

		lb = read
	} else {
		lb = d.byName(ctx, &data, resp)
		if lb == nil {
			return
		}
	}

	data.setFound(ctx, lb, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &data)...)
}

// noun and narrowing are what the look-up's diagnostics say of it (diagnostic.Lookup).
const noun = "load balancer"

var narrowing = []string{"network_id"}

// byName finds the one load balancer of the name in the scope searched, or says why
// there is not exactly one. One being deleted is not there to be found.
func (d *dataSource) byName(ctx context.Context, data *model, resp *datasource.ReadResponse) *loadbalancing.LoadBalancer {
	selector := cloud.Selector{
		Name:           data.Name.ValueString(),
		OrganizationID: d.Organization(data.OrganizationID, &resp.Diagnostics),
		ProjectID:      d.Provider.Project(data.ProjectID, pathProjectID, &resp.Diagnostics),
		NetworkID:      data.NetworkID.ValueString(),
	}
	if resp.Diagnostics.HasError() {
		return nil
	}

	found, err := d.Provider.LoadBalancers.List(ctx, loadbalancing.Query{
		OrganizationID: selector.OrganizationID, ProjectID: selector.ProjectID, NetworkID: selector.NetworkID,
	})
	if err != nil {
		resp.Diagnostics.Append(diagnostic.LoadBalancing("Unable to list load balancers", err)...)

		return nil
	}

	missed := &cloud.LookupError{Kind: noun, Selector: selector}

	var matches []loadbalancing.LoadBalancer

	for _, lb := range found {
		if lb.Deleting {
			continue
		}

		missed.Names = append(missed.Names, lb.Name)

		if lb.Name == selector.Name {
			matches = append(matches, lb)
			missed.Matches = append(missed.Matches, lb.ID)
		}
	}

	if len(matches) == 1 {
		return &matches[0]
	}

	resp.Diagnostics.Append(diagnostic.Lookup(noun, narrowing, missed))

	return nil
}
