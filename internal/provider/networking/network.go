package networking

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
)

// NetworkTypeName is the network data source's Terraform type.
const NetworkTypeName = "unikorn_network"

// Network attribute descriptions, shared by the data source and the resource.
const (
	networkRegionDescription      = "Region the network is in."
	networkPrefixDescription      = "IPv4 prefix of the network, e.g. `10.0.0.0/24`."
	networkNameserversDescription = "IPv4 addresses of the DNS servers the network hands out; empty when it uses the platform's."
)

// NewNetworkDataSource returns the unikorn_network data source.
func NewNetworkDataSource() datasource.DataSource {
	return newDataSource(kind[networking.Network]{
		typeName: NetworkTypeName,
		noun:     "network",
		description: "Looks up a network, by `id` or by `name` within a project. An instance's " +
			"organization, project and region are those of its network.",
		attributes: map[string]schema.Attribute{
			"region_id": schema.StringAttribute{
				Computed: true, MarkdownDescription: networkRegionDescription,
			},
			"prefix": schema.StringAttribute{
				Computed: true, MarkdownDescription: networkPrefixDescription,
			},
			"dns_nameservers": schema.ListAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: networkNameserversDescription,
			},
			"routes": schema.ListNestedAttribute{
				Computed: true, MarkdownDescription: networkRoutesDescription,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"prefix":  schema.StringAttribute{Computed: true, MarkdownDescription: routePrefixDescription},
					"nexthop": schema.StringAttribute{Computed: true, MarkdownDescription: routeNexthopDescription},
				}},
			},
			"reservations": schema.SingleNestedAttribute{
				Computed: true, MarkdownDescription: networkReservationsDescription,
				Attributes: map[string]schema.Attribute{
					"prefix_length": schema.Int64Attribute{Computed: true, MarkdownDescription: reservationPrefixLengthDescription},
					"provider_reserved_prefix_length": schema.Int64Attribute{
						Computed: true, MarkdownDescription: reservationProviderLengthDescription,
					},
				},
			},
		},
		newModel: func() model[networking.Network] { return &networkModel{} },
		find:     networking.Objects.Network,
		metadata: func(network *networking.Network) *cloud.ProjectMetadata { return &network.Metadata },
	})
}

type networkModel struct {
	commonModel

	RegionID       types.String `tfsdk:"region_id"`
	Prefix         types.String `tfsdk:"prefix"`
	DNSNameservers types.List   `tfsdk:"dns_nameservers"`
	Routes         types.List   `tfsdk:"routes"`
	Reservations   types.Object `tfsdk:"reservations"`
}

func (m *networkModel) narrow(*networking.Selector) {}

func (m *networkModel) set(ctx context.Context, network *networking.Network, diags *diag.Diagnostics) {
	m.RegionID = types.StringValue(network.RegionID)
	m.Prefix = types.StringValue(network.Prefix)

	nameservers := network.DNSNameservers
	if nameservers == nil {
		nameservers = []string{}
	}

	value, d := types.ListValueFrom(ctx, types.StringType, nameservers)
	diags.Append(d...)
	m.DNSNameservers = value
	m.Routes = routesValue(ctx, network.Routes, false, diags)
	m.Reservations = reservationsValue(ctx, network.Reservations, diags)
}
