package networking

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// SecurityGroupTypeName is the security group data source's Terraform type.
const SecurityGroupTypeName = "unikorn_security_group"

// anyAddress is what region applies when a rule names no prefix.
const anyAddress = "0.0.0.0/0"

// NewSecurityGroupDataSource returns the unikorn_security_group data source.
func NewSecurityGroupDataSource() datasource.DataSource {
	return newDataSource(kind[networking.SecurityGroup]{
		typeName: SecurityGroupTypeName,
		noun:     "security group",
		description: "Looks up a security group, by `id` or by `name` within a project (and, with " +
			"`network_id`, on one network). Every network usually has groups of the same names, so " +
			"a look-up by name mostly needs `network_id`.",
		attributes: map[string]schema.Attribute{
			"network_id": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Network the security group belongs to. With `name`, only this network " +
					"is searched; with `id` it is read from the group. An instance can only use the groups of its own network.",
				Validators: []validator.String{validators.UUID()},
			},
			"region_id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Region the security group is in.",
			},
			"rules": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "What the group allows, in the order the cloud keeps them.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"direction": schema.StringAttribute{Computed: true, MarkdownDescription: ruleDirectionDescription},
					"protocol": schema.StringAttribute{
						Computed: true, MarkdownDescription: ruleProtocolDescription,
					},
					"port": schema.Int64Attribute{
						Computed: true, MarkdownDescription: rulePortDescription,
					},
					"port_max": schema.Int64Attribute{
						Computed: true, MarkdownDescription: rulePortMaxDescription,
					},
					"prefix": schema.StringAttribute{
						Computed: true, MarkdownDescription: rulePrefixDescription,
					},
				}},
			},
		},
		narrowing: []string{"network_id"},
		newModel:  func() model[networking.SecurityGroup] { return &securityGroupModel{} },
		find:      networking.Objects.SecurityGroup,
		metadata:  func(group *networking.SecurityGroup) *cloud.ProjectMetadata { return &group.Metadata },
	})
}

type securityGroupModel struct {
	commonModel

	NetworkID types.String `tfsdk:"network_id"`
	RegionID  types.String `tfsdk:"region_id"`
	Rules     []ruleModel  `tfsdk:"rules"`
}

type ruleModel struct {
	Direction types.String `tfsdk:"direction"`
	Protocol  types.String `tfsdk:"protocol"`
	Port      types.Int64  `tfsdk:"port"`
	PortMax   types.Int64  `tfsdk:"port_max"`
	Prefix    types.String `tfsdk:"prefix"`
}

func (m *securityGroupModel) narrow(selector *networking.Selector) {
	selector.NetworkID = m.NetworkID.ValueString()
}

func (m *securityGroupModel) set(_ context.Context, group *networking.SecurityGroup, _ *diag.Diagnostics) {
	m.NetworkID = types.StringValue(group.NetworkID)
	m.RegionID = types.StringValue(group.RegionID)

	m.Rules = make([]ruleModel, len(group.Rules))
	for i, rule := range group.Rules {
		prefix := rule.Prefix
		if prefix == "" {
			prefix = anyAddress
		}

		m.Rules[i] = ruleModel{
			Direction: types.StringValue(rule.Direction),
			Protocol:  types.StringValue(rule.Protocol),
			Port:      optionalInt(rule.Port),
			PortMax:   optionalInt(rule.PortMax),
			Prefix:    types.StringValue(prefix),
		}
	}
}

func optionalInt(value *int) types.Int64 {
	if value == nil {
		return types.Int64Null()
	}

	return types.Int64Value(int64(*value))
}
