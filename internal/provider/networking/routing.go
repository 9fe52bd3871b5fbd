package networking

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// Descriptions of a network's routes and address reservations, shared by the data
// source and the resource.
const (
	networkRoutesDescription       = "Static routes the network hands out: traffic to `prefix` goes through `nexthop`."
	routePrefixDescription         = "IPv4 CIDR the route leads to, e.g. `192.168.0.0/16`."
	routeNexthopDescription        = "IPv4 address of the gateway on the network that traffic to `prefix` goes through."
	networkReservationsDescription = "Addresses at the start of the network that are kept from instances: the first " +
		"`/prefix_length` of the network, of which the first `/provider_reserved_prefix_length` belongs to the " +
		"platform. Region's default is a /25 with a /28 for the platform."
	reservationPrefixLengthDescription   = "Length of the reserved prefix; longer than the network's own prefix, at most 30."
	reservationProviderLengthDescription = "Length of the platform's part of the reservation; at least `prefix_length`, at most 30."
)

// routeModel is one route.
type routeModel struct {
	Prefix  types.String `tfsdk:"prefix"`
	Nexthop types.String `tfsdk:"nexthop"`
}

var routeAttributeTypes = map[string]attr.Type{"prefix": types.StringType, "nexthop": types.StringType}

// reservationsModel is a network's address reservation.
type reservationsModel struct {
	PrefixLength                 types.Int64 `tfsdk:"prefix_length"`
	ProviderReservedPrefixLength types.Int64 `tfsdk:"provider_reserved_prefix_length"`
}

// objectAsOptions reads a nested object strictly: every attribute is in the model.
var objectAsOptions = basetypes.ObjectAsOptions{}

var reservationsAttributeTypes = map[string]attr.Type{
	"prefix_length": types.Int64Type, "provider_reserved_prefix_length": types.Int64Type,
}

// routesValue is region's routes as Terraform holds them; keepNull leaves no routes as
// null rather than an empty list, so that a configuration without them shows no diff.
func routesValue(ctx context.Context, routes []networking.Route, keepNull bool, diags *diag.Diagnostics) types.List {
	elementType := types.ObjectType{AttrTypes: routeAttributeTypes}
	if len(routes) == 0 && keepNull {
		return types.ListNull(elementType)
	}

	models := make([]routeModel, len(routes))
	for i, route := range routes {
		models[i] = routeModel{Prefix: types.StringValue(route.Prefix), Nexthop: types.StringValue(route.Nexthop)}
	}

	value, d := types.ListValueFrom(ctx, elementType, models)
	diags.Append(d...)

	return value
}

// routesSpec is the routes of a configuration as region takes them.
func routesSpec(ctx context.Context, routes types.List, diags *diag.Diagnostics) []networking.Route {
	var models []routeModel
	diags.Append(routes.ElementsAs(ctx, &models, false)...)

	spec := make([]networking.Route, len(models))
	for i, model := range models {
		spec[i] = networking.Route{Prefix: model.Prefix.ValueString(), Nexthop: model.Nexthop.ValueString()}
	}

	return spec
}

// reservationsValue is region's reservation as Terraform holds it (null when region
// reports none).
func reservationsValue(ctx context.Context, reservations *networking.Reservations, diags *diag.Diagnostics) types.Object {
	if reservations == nil {
		return types.ObjectNull(reservationsAttributeTypes)
	}

	model := reservationsModel{
		PrefixLength:                 types.Int64Value(int64(reservations.PrefixLength)),
		ProviderReservedPrefixLength: types.Int64Null(),
	}
	if provider := reservations.ProviderReservedPrefixLength; provider != nil {
		model.ProviderReservedPrefixLength = types.Int64Value(int64(*provider))
	}

	value, d := types.ObjectValueFrom(ctx, reservationsAttributeTypes, model)
	diags.Append(d...)

	return value
}

// reservationsSpec is the reservation of a plan as region takes it; nil leaves region
// to apply its default.
func reservationsSpec(ctx context.Context, reservations types.Object, diags *diag.Diagnostics) *networking.Reservations {
	if reservations.IsNull() || reservations.IsUnknown() {
		return nil
	}

	var model reservationsModel
	diags.Append(reservations.As(ctx, &model, objectAsOptions)...)

	spec := &networking.Reservations{PrefixLength: int(model.PrefixLength.ValueInt64())}

	if !model.ProviderReservedPrefixLength.IsNull() && !model.ProviderReservedPrefixLength.IsUnknown() {
		provider := int(model.ProviderReservedPrefixLength.ValueInt64())
		spec.ProviderReservedPrefixLength = &provider
	}

	return spec
}

// checkReservations reports, on its attribute, a reservation region would refuse with
// 422 for a network of prefix.
func checkReservations(ctx context.Context, prefix types.String, reservations types.Object, at path.Path, diags *diag.Diagnostics) {
	if prefix.IsNull() || prefix.IsUnknown() || reservations.IsNull() || reservations.IsUnknown() {
		return
	}

	network, err := netip.ParsePrefix(prefix.ValueString())
	if err != nil {
		return // the prefix's own validator says why
	}

	var model reservationsModel
	if diags.Append(reservations.As(ctx, &model, objectAsOptions)...); diags.HasError() {
		return
	}

	length := model.PrefixLength
	if !length.IsUnknown() && !length.IsNull() && length.ValueInt64() <= int64(network.Bits()) {
		diags.Append(diagnostic.AttributeError(at.AtName("prefix_length"), "Invalid reservation",
			fmt.Sprintf("A reservation of /%d does not fit in the network %s: it must be longer than /%d.",
				length.ValueInt64(), network, network.Bits()),
			fmt.Sprintf("Use a prefix length between %d and 30.", network.Bits()+1)))
	}

	provider := model.ProviderReservedPrefixLength
	if !provider.IsUnknown() && !provider.IsNull() && !length.IsUnknown() && !length.IsNull() &&
		provider.ValueInt64() < length.ValueInt64() {
		diags.Append(diagnostic.AttributeError(at.AtName("provider_reserved_prefix_length"), "Invalid reservation",
			fmt.Sprintf("The platform's part, /%d, is larger than the reservation it is part of, /%d.",
				provider.ValueInt64(), length.ValueInt64()),
			fmt.Sprintf("Use a length between %d and 30.", length.ValueInt64())))
	}
}

// ipv4Value accepts an IPv4 CIDR (cidr) or address, as region's routes take them.
type ipv4Value struct {
	validators.Described

	cidr bool
}

// ipv4 is the ipv4Value of a CIDR (cidr) or an address, its words following from it.
func ipv4(cidr bool) ipv4Value {
	if cidr {
		return ipv4Value{"an IPv4 CIDR", true}
	}

	return ipv4Value{"an IPv4 address", false}
}

func (v ipv4Value) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}

	value := req.ConfigValue.ValueString()

	var ok bool

	if v.cidr {
		prefix, err := netip.ParsePrefix(value)
		ok = err == nil && prefix.Addr().Is4()
	} else {
		address, err := netip.ParseAddr(value)
		ok = err == nil && address.Is4()
	}

	if !ok {
		resp.Diagnostics.Append(diagnostic.AttributeError(req.Path, "Invalid route",
			fmt.Sprintf("%q is not %s.", value, v.Description(ctx)), "Write it like 192.168.0.0/16 for a prefix, 10.0.0.1 for a next hop."))
	}
}
