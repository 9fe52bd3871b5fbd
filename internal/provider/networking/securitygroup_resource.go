package networking

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
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
	_ resource.ResourceWithConfigure      = (*securityGroupResource)(nil)
	_ resource.ResourceWithImportState    = (*securityGroupResource)(nil)
	_ resource.ResourceWithValidateConfig = (*securityGroupResource)(nil)
	_ resource.ResourceWithIdentity       = (*securityGroupResource)(nil)
)

// Rule descriptions, shared by the data source and the resource.
const (
	ruleDirectionDescription = "`ingress` or `egress`."
	ruleProtocolDescription  = "`any`, `icmp`, `tcp`, `udp` or `vrrp`."
	rulePortDescription      = "The port, or the first of a range; only for `tcp` and `udp`. Null when the rule covers every port."
	rulePortMaxDescription   = "The last port of a range, greater than `port`; null for a single port."
	rulePrefixDescription    = "The remote addresses, as an IPv4 CIDR prefix; `" + anyAddress + "` for any."
)

// NewSecurityGroupResource returns the unikorn_security_group resource.
func NewSecurityGroupResource() resource.Resource {
	return &securityGroupResource{newManaged(SecurityGroupTypeName, "security group", func() *securityGroupResourceModel { return &securityGroupResourceModel{} },
		networking.Objects.ReadSecurityGroup, networking.Objects.DeleteSecurityGroup, setSecurityGroup,
		func(object *networking.SecurityGroup) *cloud.ProjectMetadata { return &object.Metadata })}
}

// securityGroupResource manages a security group of a network. Its rules and metadata
// change in place; a group never moves to another network.
type securityGroupResource struct {
	managed[networking.SecurityGroup, *securityGroupResourceModel]
}

type securityGroupResourceModel struct {
	commonModel
	family.Timed

	NetworkID types.String `tfsdk:"network_id"`
	RegionID  types.String `tfsdk:"region_id"`
	Rules     []ruleModel  `tfsdk:"rules"`
}

func (r *securityGroupResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computedFromNetwork := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}

	resp.Schema = schema.Schema{
		MarkdownDescription: "A security group of a network: the traffic its instances allow. Rules, name, " +
			"description and tags change in place; a change of network replaces the group. Region refuses to delete " +
			"a group while an instance is in it; to take it out of instances' `security_group_ids` and delete it in " +
			"one apply, give it `lifecycle { create_before_destroy = true }`, and apply, before removing it (see [Removing an object together with the references to it](../guides/removing-an-object-with-its-references.md)).",
		Attributes: map[string]schema.Attribute{
			"timeouts": timeoutsAttribute(ctx, true),
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "ID of the security group.",
				PlanModifiers: computedFromNetwork,
			},
			"name": schema.StringAttribute{
				Required: true, MarkdownDescription: "Name of the security group: " + validators.NameRule + ".",
				Validators: []validator.String{validators.Name("security group")},
			},
			"description": schema.StringAttribute{Optional: true, MarkdownDescription: "Description of the security group."},
			"tags": schema.MapAttribute{
				Optional: true, ElementType: types.StringType, MarkdownDescription: "Tags of the security group, by name.",
			},
			"network_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Network the security group belongs to. Changing it replaces the group.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{validators.UUID()},
			},
			"organization_id": schema.StringAttribute{
				Computed: true, PlanModifiers: computedFromNetwork,
				MarkdownDescription: "Organization of the security group: its network's.",
			},
			"project_id": schema.StringAttribute{
				Computed: true, PlanModifiers: computedFromNetwork,
				MarkdownDescription: "Project of the security group: its network's.",
			},
			"region_id": schema.StringAttribute{
				Computed: true, PlanModifiers: computedFromNetwork,
				MarkdownDescription: "Region of the security group: its network's.",
			},
			"rules": schema.ListNestedAttribute{
				Required:            true,
				MarkdownDescription: "What the group allows. Changed in place.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"direction": schema.StringAttribute{
						Required: true, MarkdownDescription: ruleDirectionDescription,
						Validators: []validator.String{stringvalidator.OneOf("ingress", "egress")},
					},
					"protocol": schema.StringAttribute{
						Required: true, MarkdownDescription: ruleProtocolDescription,
						Validators: []validator.String{stringvalidator.OneOf("any", "icmp", "tcp", "udp", "vrrp")},
					},
					"port":     schema.Int64Attribute{Optional: true, MarkdownDescription: rulePortDescription},
					"port_max": schema.Int64Attribute{Optional: true, MarkdownDescription: rulePortMaxDescription},
					"prefix": schema.StringAttribute{
						Optional: true, Computed: true, Default: stringdefault.StaticString(anyAddress),
						MarkdownDescription: rulePrefixDescription,
					},
				}},
			},
		},
	}
}

// ValidateConfig checks each rule as region would, and reports a problem on the
// attribute of the rule that has it.
func (r *securityGroupResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var list types.List
	if resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("rules"), &list)...); resp.Diagnostics.HasError() {
		return
	}

	// Rules that come from elsewhere in the configuration are checked once known.
	if list.IsNull() || list.IsUnknown() {
		return
	}

	var rules []types.Object
	resp.Diagnostics.Append(list.ElementsAs(ctx, &rules, false)...)

	for i, object := range rules {
		if object.IsUnknown() {
			continue
		}

		var rule ruleModel
		if d := object.As(ctx, &rule, basetypes.ObjectAsOptions{}); d.HasError() {
			resp.Diagnostics.Append(d...)

			continue
		}

		checkRule(path.Root("rules").AtListIndex(i), rule, &resp.Diagnostics)
	}
}

// checkRule reports what region would refuse of one rule, on the attribute at fault.
func checkRule(at path.Path, rule ruleModel, diags *diag.Diagnostics) {
	problem := func(attribute, summary, detail, fix string) {
		diags.Append(diagnostic.AttributeError(at.AtName(attribute), summary, detail, fix))
	}

	for _, port := range []struct {
		name  string
		value types.Int64
	}{{"port", rule.Port}, {"port_max", rule.PortMax}} {
		if !port.value.IsNull() && !port.value.IsUnknown() && (port.value.ValueInt64() < 1 || port.value.ValueInt64() > 65535) {
			problem(port.name, "Invalid port", fmt.Sprintf("Port %d is outside 1-65535.", port.value.ValueInt64()), "Use a port from 1 to 65535.")
		}
	}

	layer4 := rule.Protocol.IsUnknown() || rule.Protocol.ValueString() == "tcp" || rule.Protocol.ValueString() == "udp"
	if !layer4 && (!rule.Port.IsNull() || !rule.PortMax.IsNull()) {
		name := "port"
		if rule.Port.IsNull() {
			name = "port_max"
		}

		problem(name, "Port on a protocol without ports",
			fmt.Sprintf("Protocol %q has no ports.", rule.Protocol.ValueString()),
			"Remove port and port_max, or use tcp or udp.")
	}

	if !rule.PortMax.IsNull() && !rule.PortMax.IsUnknown() && !rule.Port.IsUnknown() &&
		(rule.Port.IsNull() || rule.Port.ValueInt64() >= rule.PortMax.ValueInt64()) {
		problem("port_max", "Invalid port range", "port_max must be greater than port, and needs port.",
			"Set port to the first port of the range and port_max to a greater last port, or drop port_max for a single port.")
	}

	if !rule.Prefix.IsNull() && !rule.Prefix.IsUnknown() {
		if prefix, err := netip.ParsePrefix(rule.Prefix.ValueString()); err != nil || !prefix.Addr().Is4() || prefix.Masked() != prefix {
			problem("prefix", "Invalid rule prefix",
				fmt.Sprintf("%q is not an IPv4 CIDR with its host bits zero.", rule.Prefix.ValueString()),
				"Write it like 192.0.2.0/24, or "+anyAddress+" for any address.")
		}
	}
}

func (r *securityGroupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan securityGroupResourceModel

	r.Write(ctx, req.Plan, &plan, family.Created(resp), func(ctx context.Context, diags *diag.Diagnostics) (*networking.SecurityGroup, error) {
		update := plan.update(ctx, diags)
		if diags.HasError() {
			return nil, nil
		}

		return r.Provider.Networking.CreateSecurityGroup(ctx, networking.SecurityGroupCreate{
			SecurityGroupUpdate: update, NetworkID: plan.NetworkID.ValueString(),
		})
	})
}

func (r *securityGroupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan securityGroupResourceModel

	r.Write(ctx, req.Plan, &plan, family.Updated(resp), func(ctx context.Context, diags *diag.Diagnostics) (*networking.SecurityGroup, error) {
		update := plan.update(ctx, diags)
		if diags.HasError() {
			return nil, nil
		}

		return r.Provider.Networking.UpdateSecurityGroup(ctx, plan.ID.ValueString(), update)
	})
}

// update is what the plan writes of the group: all an update sends, and all a create
// sends but the network.
func (m *securityGroupResourceModel) update(ctx context.Context, diags *diag.Diagnostics) networking.SecurityGroupUpdate {
	return networking.SecurityGroupUpdate{Metadata: m.Write(ctx, diags), Rules: rulesSpec(m.Rules)}
}

func setSecurityGroup(ctx context.Context, m *securityGroupResourceModel, group *networking.SecurityGroup, diags *diag.Diagnostics) {
	m.setKept(ctx, &group.Metadata, diags)

	view := securityGroupModel{}
	view.set(ctx, group, diags)
	m.NetworkID, m.RegionID, m.Rules = view.NetworkID, view.RegionID, view.Rules
}

func rulesSpec(rules []ruleModel) []networking.Rule {
	spec := make([]networking.Rule, len(rules))

	for i, rule := range rules {
		spec[i] = networking.Rule{
			Direction: rule.Direction.ValueString(), Protocol: rule.Protocol.ValueString(),
			Port: intPointer(rule.Port), PortMax: intPointer(rule.PortMax), Prefix: rule.Prefix.ValueString(),
		}
	}

	return spec
}

func intPointer(value types.Int64) *int {
	if value.IsNull() || value.IsUnknown() {
		return nil
	}

	port := int(value.ValueInt64())

	return &port
}
