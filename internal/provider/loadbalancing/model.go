package loadbalancing

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
)

// model is what the resource, the data source and the list resource's results share.
type model struct {
	family.Metadata
	family.Place

	ID                 types.String `tfsdk:"id"`
	NetworkID          types.String `tfsdk:"network_id"`
	VIPAddress         types.String `tfsdk:"vip_address"`
	PublicIPEnabled    types.Bool   `tfsdk:"public_ip_enabled"`
	PublicIP           types.String `tfsdk:"public_ip"`
	ProvisioningStatus types.String `tfsdk:"provisioning_status"`
	HealthStatus       types.String `tfsdk:"health_status"`
	Listeners          types.Map    `tfsdk:"listeners"`
}

// resourceModel is the resource's state.
type resourceModel struct {
	model
	family.Timed
}

// Keys are the load balancer's ID: region's IDs are unique across organizations.
func (m *resourceModel) Keys() (types.String, types.String) { return m.OrganizationID, m.ID }

// listenerModel is one listener; its name is its key in the listeners map.
type listenerModel struct {
	Protocol           types.String `tfsdk:"protocol"`
	Port               types.Int64  `tfsdk:"port"`
	AllowedCIDRs       types.Set    `tfsdk:"allowed_cidrs"`
	IdleTimeoutSeconds types.Int64  `tfsdk:"idle_timeout_seconds"`
	ProxyProtocolV2    types.Bool   `tfsdk:"proxy_protocol_v2"`
	Members            memberSet    `tfsdk:"members"`
	HealthCheck        types.Object `tfsdk:"health_check"`
}

type memberModel struct {
	Address types.String `tfsdk:"address"`
	Port    types.Int64  `tfsdk:"port"`
}

type healthCheckModel struct {
	IntervalSeconds    types.Int64 `tfsdk:"interval_seconds"`
	TimeoutSeconds     types.Int64 `tfsdk:"timeout_seconds"`
	HealthyThreshold   types.Int64 `tfsdk:"healthy_threshold"`
	UnhealthyThreshold types.Int64 `tfsdk:"unhealthy_threshold"`
}

// The object types of the nested attributes, which values of them need.
var (
	memberType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"address": types.StringType,
		"port":    types.Int64Type,
	}}
	healthCheckType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"interval_seconds":    types.Int64Type,
		"timeout_seconds":     types.Int64Type,
		"healthy_threshold":   types.Int64Type,
		"unhealthy_threshold": types.Int64Type,
	}}
	listenerType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"protocol":             types.StringType,
		"port":                 types.Int64Type,
		"allowed_cidrs":        types.SetType{ElemType: types.StringType},
		"idle_timeout_seconds": types.Int64Type,
		"proxy_protocol_v2":    types.BoolType,
		"members":              newMemberSetType(),
		"health_check":         healthCheckType,
	}}
)

// listeners returns the listeners m holds, by name. Unknown values are left zero and
// reported in unknown, by listener, as the fields a Problem names.
func listeners(ctx context.Context, value types.Map, diags *diag.Diagnostics) (out []loadbalancing.Listener, unknown map[string]map[string]bool) {
	unknown = map[string]map[string]bool{}

	if value.IsNull() || value.IsUnknown() {
		return nil, unknown
	}

	elements := value.Elements()

	for _, name := range slices.Sorted(maps.Keys(elements)) {
		// A listener not known at all yet is judged at apply.
		object, ok := elements[name].(types.Object)
		if !ok || object.IsUnknown() || object.IsNull() {
			continue
		}

		var m listenerModel
		diags.Append(object.As(ctx, &m, basetypes.ObjectAsOptions{})...)

		l := loadbalancing.Listener{
			Name:               name,
			Protocol:           m.Protocol.ValueString(),
			Port:               int(m.Port.ValueInt64()),
			IdleTimeoutSeconds: int(m.IdleTimeoutSeconds.ValueInt64()),
			ProxyProtocolV2:    m.ProxyProtocolV2.ValueBool(),
			Members:            []loadbalancing.Member{},
		}

		missing := map[string]bool{}
		unknown[name] = missing

		for field, v := range map[string]attr.Value{
			loadbalancing.FieldProtocol:           m.Protocol,
			loadbalancing.FieldPort:               m.Port,
			loadbalancing.FieldIdleTimeoutSeconds: m.IdleTimeoutSeconds,
			loadbalancing.FieldProxyProtocolV2:    m.ProxyProtocolV2,
			loadbalancing.FieldAllowedCIDRs:       m.AllowedCIDRs,
			loadbalancing.FieldMembers:            m.Members,
			loadbalancing.FieldHealthCheck:        m.HealthCheck,
		} {
			missing[field] = v.IsUnknown()
		}

		// A protocol not yet known may make any other field wrong or right.
		if missing[loadbalancing.FieldProtocol] {
			missing[loadbalancing.FieldIdleTimeoutSeconds], missing[loadbalancing.FieldProxyProtocolV2] = true, true
		}

		// A CIDR not yet known is judged at apply; the known ones now.
		l.AllowedCIDRs, _ = planning.KnownStrings(m.AllowedCIDRs)

		l.Members = members(ctx, m.Members, diags)
		l.HealthCheck = healthCheck(ctx, m.HealthCheck, missing, diags)

		out = append(out, l)
	}

	return out, unknown
}

// members returns the members of a set whose address and port are known: one with an
// unknown value cannot be judged yet.
func members(ctx context.Context, value memberSet, diags *diag.Diagnostics) []loadbalancing.Member {
	out := []loadbalancing.Member{}

	if value.IsNull() || value.IsUnknown() {
		return out
	}

	for _, element := range value.Elements() {
		object, ok := element.(types.Object)
		if !ok || object.IsUnknown() || object.IsNull() {
			continue
		}

		var m memberModel
		diags.Append(object.As(ctx, &m, basetypes.ObjectAsOptions{})...)

		if m.Address.IsUnknown() || m.Port.IsUnknown() {
			continue
		}

		out = append(out, loadbalancing.Member{Address: m.Address.ValueString(), Port: int(m.Port.ValueInt64())})
	}

	return out
}

// healthCheck returns a listener's health check, nil for none. Unknown fields mark the
// check of its timeout against its interval as unknown.
func healthCheck(ctx context.Context, value types.Object, missing map[string]bool, diags *diag.Diagnostics) *loadbalancing.HealthCheck {
	if value.IsNull() || value.IsUnknown() {
		return nil
	}

	var m healthCheckModel
	diags.Append(value.As(ctx, &m, basetypes.ObjectAsOptions{})...)

	fields := map[string]types.Int64{
		"interval_seconds": m.IntervalSeconds, "timeout_seconds": m.TimeoutSeconds,
		"healthy_threshold": m.HealthyThreshold, "unhealthy_threshold": m.UnhealthyThreshold,
	}
	for name, v := range fields {
		missing[loadbalancing.FieldHealthCheck+"."+name] = v.IsUnknown()
	}

	if m.IntervalSeconds.IsUnknown() {
		missing[loadbalancing.FieldHealthCheck+".timeout_seconds"] = true
	}

	return &loadbalancing.HealthCheck{
		IntervalSeconds:    int(m.IntervalSeconds.ValueInt64()),
		TimeoutSeconds:     int(m.TimeoutSeconds.ValueInt64()),
		HealthyThreshold:   int(m.HealthyThreshold.ValueInt64()),
		UnhealthyThreshold: int(m.UnhealthyThreshold.ValueInt64()),
	}
}

// spec is the document a plan asks for.
func (m *model) spec(ctx context.Context, diags *diag.Diagnostics) loadbalancing.Spec {
	spec := loadbalancing.Spec{
		Name:        m.Name.ValueString(),
		Description: m.Description.ValueString(),
		Tags:        m.TagMap(ctx, diags),
		PublicIP:    m.PublicIPEnabled.ValueBool(),
	}

	spec.Listeners, _ = listeners(ctx, m.Listeners, diags)

	return spec
}

// setKept fills a resource's model from region's load balancer; an unset description
// or tags stay unset while region holds none (see family.Metadata.Set).
func (m *model) setKept(ctx context.Context, lb *loadbalancing.LoadBalancer, diags *diag.Diagnostics) {
	m.Set(ctx, lb.Name, lb.Description, lb.Tags, diags)
	m.setRest(ctx, lb, diags)
}

// setFound fills a look-up's model from region's load balancer (see
// family.Metadata.Found).
func (m *model) setFound(ctx context.Context, lb *loadbalancing.LoadBalancer, diags *diag.Diagnostics) {
	m.Found(ctx, lb.Name, lb.Description, lb.Tags, diags)
	m.setRest(ctx, lb, diags)
}

// setRest fills all but the metadata of m from region's load balancer. What m held
// before (the prior state, or nothing for an import or a look-up) decides the form of
// what region keeps in its own: CIDRs written with host bits, an empty list where
// region has none, so that a plan shows no difference for them.
func (m *model) setRest(ctx context.Context, lb *loadbalancing.LoadBalancer, diags *diag.Diagnostics) {
	m.ID = types.StringValue(lb.ID)
	m.NetworkID = types.StringValue(lb.NetworkID)
	m.Place = family.PlaceOf(lb.OrganizationID, lb.ProjectID, lb.RegionID)
	m.PublicIPEnabled = types.BoolValue(lb.PublicIP)
	m.VIPAddress = family.OptionalString(lb.VIPAddress)
	m.PublicIP = family.OptionalString(lb.PublicIPAddress)
	m.ProvisioningStatus = types.StringValue(lb.ProvisioningStatus)
	m.HealthStatus = types.StringValue(lb.HealthStatus)

	prior := map[string]listenerModel{}
	if !m.Listeners.IsNull() && !m.Listeners.IsUnknown() {
		diags.Append(m.Listeners.ElementsAs(ctx, &prior, true)...)
	}

	values := map[string]attr.Value{}
	for _, l := range lb.Listeners {
		values[l.Name] = listenerValue(ctx, l, prior[l.Name], diags)
	}

	listenersValue, d := types.MapValue(listenerType, values)
	diags.Append(d...)
	m.Listeners = listenersValue
}

// listenerValue is a listener as the state holds it, in prior's forms where region
// keeps the same.
func listenerValue(ctx context.Context, l loadbalancing.Listener, prior listenerModel, diags *diag.Diagnostics) attr.Value {
	cidrs := types.SetNull(types.StringType)

	var priorCIDRs []string
	if !prior.AllowedCIDRs.IsNull() && !prior.AllowedCIDRs.IsUnknown() {
		diags.Append(prior.AllowedCIDRs.ElementsAs(ctx, &priorCIDRs, true)...)
	}

	switch {
	case !prior.AllowedCIDRs.IsNull() && !prior.AllowedCIDRs.IsUnknown() && loadbalancing.SameCIDRs(priorCIDRs, l.AllowedCIDRs):
		cidrs = prior.AllowedCIDRs
	case len(l.AllowedCIDRs) > 0:
		value, d := types.SetValueFrom(ctx, types.StringType, l.AllowedCIDRs)
		diags.Append(d...)
		cidrs = value
	}

	idle := types.Int64Null()
	if l.IdleTimeoutSeconds != 0 {
		idle = types.Int64Value(int64(l.IdleTimeoutSeconds))
	}

	check := types.ObjectNull(healthCheckType.AttrTypes)

	if hc := l.HealthCheck; hc != nil {
		value, d := types.ObjectValue(healthCheckType.AttrTypes, map[string]attr.Value{
			"interval_seconds":    types.Int64Value(int64(hc.IntervalSeconds)),
			"timeout_seconds":     types.Int64Value(int64(hc.TimeoutSeconds)),
			"healthy_threshold":   types.Int64Value(int64(hc.HealthyThreshold)),
			"unhealthy_threshold": types.Int64Value(int64(hc.UnhealthyThreshold)),
		})
		diags.Append(d...)
		check = value
	}

	value, d := types.ObjectValue(listenerType.AttrTypes, map[string]attr.Value{
		"protocol":             types.StringValue(l.Protocol),
		"port":                 types.Int64Value(int64(l.Port)),
		"allowed_cidrs":        cidrs,
		"idle_timeout_seconds": idle,
		"proxy_protocol_v2":    types.BoolValue(l.ProxyProtocolV2),
		"members":              membersValue(ctx, l.Members, prior.Members, diags),
		"health_check":         check,
	})
	diags.Append(d...)

	return value
}

// membersValue is the members as the state holds them: prior's when region holds the
// same addresses, written perhaps in another form.
func membersValue(ctx context.Context, members []loadbalancing.Member, prior memberSet, diags *diag.Diagnostics) memberSet {
	canonical := func(ms []loadbalancing.Member) []loadbalancing.Member {
		out := make([]loadbalancing.Member, 0, len(ms))

		for _, m := range ms {
			if address, ok := loadbalancing.CanonicalAddress(m.Address); ok {
				m.Address = address
			}

			out = append(out, m)
		}

		slices.SortFunc(out, func(a, b loadbalancing.Member) int {
			return cmp.Or(strings.Compare(a.Address, b.Address), cmp.Compare(a.Port, b.Port))
		})

		return slices.Compact(out)
	}

	if !prior.IsNull() && !prior.IsUnknown() {
		var before []memberModel
		diags.Append(prior.ElementsAs(ctx, &before, true)...)

		known := make([]loadbalancing.Member, 0, len(before))
		for _, m := range before {
			known = append(known, loadbalancing.Member{Address: m.Address.ValueString(), Port: int(m.Port.ValueInt64())})
		}

		if slices.Equal(canonical(known), canonical(members)) {
			return prior
		}
	}

	values := make([]attr.Value, 0, len(members))

	for _, m := range members {
		value, d := types.ObjectValue(memberType.AttrTypes, map[string]attr.Value{
			"address": types.StringValue(m.Address),
			"port":    types.Int64Value(int64(m.Port)),
		})
		diags.Append(d...)
		values = append(values, value)
	}

	set, d := newMemberSet(values)
	diags.Append(d...)

	return set
}
