package networking

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

var (
	_ resource.ResourceWithConfigure   = (*networkResource)(nil)
	_ resource.ResourceWithImportState = (*networkResource)(nil)
	_ resource.ResourceWithIdentity    = (*networkResource)(nil)

	_ resource.ResourceWithValidateConfig = (*networkResource)(nil)
)

// NewNetworkResource returns the unikorn_network resource.
func NewNetworkResource() resource.Resource {
	return &networkResource{newManaged(NetworkTypeName, "network", func() *networkResourceModel { return &networkResourceModel{} },
		networking.Objects.ReadNetwork, networking.Objects.DeleteNetwork, setNetwork,
		func(object *networking.Network) *cloud.ProjectMetadata { return &object.Metadata })}
}

// networkResource manages a network. Region can change only its DNS servers, routes
// and metadata in place; everything else it fixes at create, so changing it replaces
// the network.
type networkResource struct {
	managed[networking.Network, *networkResourceModel]
}

type networkResourceModel struct {
	commonModel
	family.Timed

	RegionID       types.String `tfsdk:"region_id"`
	Prefix         types.String `tfsdk:"prefix"`
	DNSNameservers types.List   `tfsdk:"dns_nameservers"`
	Routes         types.List   `tfsdk:"routes"`
	Reservations   types.Object `tfsdk:"reservations"`
}

func (r *networkResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	scope := []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()}

	resp.Schema = schema.Schema{
		MarkdownDescription: "A network in a region, which instances stand on. Region can change its " +
			"DNS servers, routes, name, description and tags in place; a change of region, prefix, " +
			"reservations, organization or project replaces it. Each network counts against the organization's " +
			"`networks` quota. Region refuses to delete a network while instances stand on it or file storage is " +
			"attached to it; to detach it and delete it in one apply, give it `lifecycle { create_before_destroy = true }`, and apply, before removing it " +
			"(see [Removing an object together with the references to it](../guides/removing-an-object-with-its-references.md)).",
		Attributes: map[string]schema.Attribute{
			"timeouts": timeoutsAttribute(ctx, true),
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "ID of the network.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required: true, MarkdownDescription: "Name of the network: " + validators.NameRule + ". Region does not require names to be unique.",
				Validators: []validator.String{validators.Name("network")},
			},
			"description": schema.StringAttribute{
				Optional: true, MarkdownDescription: "Description of the network.",
			},
			"tags": schema.MapAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Tags of the network, by name.",
			},
			"organization_id": schema.StringAttribute{
				Optional: true, Computed: true, PlanModifiers: scope,
				MarkdownDescription: "Organization of the network; defaults to the provider's `organization_id`. Changing it replaces the network.",
				Validators:          []validator.String{validators.UUID()},
			},
			"project_id": schema.StringAttribute{
				Optional: true, Computed: true, PlanModifiers: scope,
				MarkdownDescription: "Project of the network; defaults to the provider's `project_id`. Changing it replaces the network.",
				Validators:          []validator.String{validators.UUID()},
			},
			"region_id": schema.StringAttribute{
				Required: true, PlanModifiers: replace,
				MarkdownDescription: networkRegionDescription + " Changing it replaces the network.",
				Validators:          []validator.String{validators.UUID()},
			},
			"prefix": schema.StringAttribute{
				Required: true, PlanModifiers: replace,
				MarkdownDescription: networkPrefixDescription + " A /24 or larger, written with its host bits zero. " +
					"Changing it replaces the network.",
				Validators: []validator.String{networkPrefix{"an IPv4 CIDR of /24 or larger with its host bits zero"}},
			},
			"dns_nameservers": schema.ListAttribute{
				Optional: true, Computed: true, ElementType: types.StringType,
				Default:             listdefault.StaticValue(basetypes.NewListValueMust(types.StringType, nil)),
				MarkdownDescription: networkNameserversDescription + " Changed in place.",
			},
			"routes": schema.ListNestedAttribute{
				Optional:            true,
				MarkdownDescription: networkRoutesDescription + " Changed in place.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"prefix": schema.StringAttribute{
						Required: true, MarkdownDescription: routePrefixDescription,
						Validators: []validator.String{ipv4(true)},
					},
					"nexthop": schema.StringAttribute{
						Required: true, MarkdownDescription: routeNexthopDescription,
						Validators: []validator.String{ipv4(false)},
					},
				}},
			},
			"reservations": schema.SingleNestedAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: networkReservationsDescription + " Changing it replaces the network.",
				PlanModifiers: []planmodifier.Object{
					objectplanmodifier.UseStateForUnknown(), objectplanmodifier.RequiresReplaceIfConfigured(),
				},
				Attributes: map[string]schema.Attribute{
					"prefix_length": schema.Int64Attribute{
						Required: true, MarkdownDescription: reservationPrefixLengthDescription,
						Validators: []validator.Int64{int64validator.Between(0, 30)},
					},
					"provider_reserved_prefix_length": schema.Int64Attribute{
						Optional: true, Computed: true, MarkdownDescription: reservationProviderLengthDescription,
						Validators: []validator.Int64{int64validator.Between(0, 30)},
						// Kept from state, or an in-place change elsewhere would plan it
						// unknown and so replace the network.
						PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
					},
				},
			},
		},
	}
}

// ValidateConfig refuses at plan a reservation region would refuse for the prefix.
func (r *networkResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var config networkResourceModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &config)...); resp.Diagnostics.HasError() {
		return
	}

	checkReservations(ctx, config.Prefix, config.Reservations, path.Root("reservations"), &resp.Diagnostics)
}

func (r *networkResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan networkResourceModel

	r.Write(ctx, req.Plan, &plan, family.Created(resp), func(ctx context.Context, diags *diag.Diagnostics) (*networking.Network, error) {
		organizationID := r.Provider.Organization(plan.OrganizationID, pathOrganizationID, diags)
		projectID := r.Provider.Project(plan.ProjectID, pathProjectID, diags)
		spec := networkSpec(ctx, &plan, diags)

		if diags.HasError() {
			return nil, nil
		}

		return r.Provider.Networking.CreateNetwork(ctx, networking.NetworkCreate{
			Metadata: plan.Write(ctx, diags), NetworkSpec: spec,
			OrganizationID: organizationID, ProjectID: projectID,
			RegionID: plan.RegionID.ValueString(), Prefix: plan.Prefix.ValueString(),
			Reservations: reservationsSpec(ctx, plan.Reservations, diags),
		})
	})
}

func (r *networkResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan networkResourceModel

	r.Write(ctx, req.Plan, &plan, family.Updated(resp), func(ctx context.Context, diags *diag.Diagnostics) (*networking.Network, error) {
		update := networking.NetworkUpdate{
			Metadata:    plan.Write(ctx, diags),
			NetworkSpec: networkSpec(ctx, &plan, diags),
		}
		if diags.HasError() {
			return nil, nil
		}

		return r.Provider.Networking.UpdateNetwork(ctx, plan.ID.ValueString(), update)
	})
}

// set fills the model from region's record.
func setNetwork(ctx context.Context, m *networkResourceModel, network *networking.Network, diags *diag.Diagnostics) {
	m.setKept(ctx, &network.Metadata, diags)
	m.RegionID = types.StringValue(network.RegionID)
	m.Prefix = types.StringValue(network.Prefix)

	nameservers, d := types.ListValueFrom(ctx, types.StringType, append([]string{}, network.DNSNameservers...))
	diags.Append(d...)
	m.DNSNameservers = nameservers
	m.Routes = routesValue(ctx, network.Routes, m.Routes.IsNull(), diags)
	m.Reservations = reservationsValue(ctx, network.Reservations, diags)
}

func networkSpec(ctx context.Context, m *networkResourceModel, diags *diag.Diagnostics) networking.NetworkSpec {
	nameservers := []string{}
	diags.Append(m.DNSNameservers.ElementsAs(ctx, &nameservers, false)...)

	return networking.NetworkSpec{DNSNameservers: nameservers, Routes: routesSpec(ctx, m.Routes, diags)}
}

// networkPrefix accepts what region accepts as a network's prefix, and only in the
// form region keeps it, so that the state never differs from the configuration.
type networkPrefix struct{ validators.Described }

func (networkPrefix) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}

	value := req.ConfigValue.ValueString()
	prefix, err := netip.ParsePrefix(value)

	var problem, fix string

	switch {
	case err != nil || !prefix.Addr().Is4():
		problem, fix = fmt.Sprintf("%q is not an IPv4 CIDR.", value), "Write it like 10.0.0.0/24."
	case prefix.Bits() > 24:
		problem, fix = fmt.Sprintf("%q is smaller than a /24, the smallest network region accepts.", value),
			"Use a prefix length of 24 or less."
	case prefix.Masked() != prefix:
		problem, fix = fmt.Sprintf("%q has host bits set.", value), fmt.Sprintf("Write it as %s.", prefix.Masked())
	default:
		return
	}

	resp.Diagnostics.Append(diagnostic.AttributeError(req.Path, "Invalid network prefix", problem, fix))
}

// timeoutsAttribute is the schema of family.Timed.
func timeoutsAttribute(ctx context.Context, update bool) schema.Attribute {
	return timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: update, Delete: true})
}
