package loadbalancing

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// resourceSchema is the schema of unikorn_load_balancer. Region's rules for listeners
// are checked by ValidateConfig with the façade's own rules, at the listener they
// concern, rather than by attribute validators, so that each is judged once.
func resourceSchema(ctx context.Context) schema.Schema {
	describe := func(name string) string { return resourceDescription(attributes, name) }
	kept := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}

	return schema.Schema{
		MarkdownDescription: "A layer 4 load balancer on a network: listeners that forward TCP or UDP to pools of " +
			"members, optionally behind a public IP. The whole load balancer is one document in region, which " +
			"an update replaces in place; only a change of network or VIP replaces the load balancer. It counts " +
			"against the organization's `loadbalancers` quota, and with a public IP its `publicips` quota.",
		Attributes: map[string]schema.Attribute{
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: describe("id"), PlanModifiers: kept,
			},
			"name": schema.StringAttribute{
				Required: true, MarkdownDescription: describe("name"),
				Validators: []validator.String{validators.Name("load balancer")},
			},
			"description": schema.StringAttribute{
				Optional: true, MarkdownDescription: describe("description"),
			},
			"tags": schema.MapAttribute{
				Optional: true, ElementType: types.StringType, MarkdownDescription: describe("tags"),
				Validators: []validator.Map{validators.TagNames()},
			},
			"network_id": schema.StringAttribute{
				Required: true, MarkdownDescription: describe("network_id"),
				Validators:    []validator.String{validators.UUID()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"vip_address": schema.StringAttribute{
				Optional: true, Computed: true, MarkdownDescription: describe("vip_address"),
				Validators: []validator.String{validators.IPv4Address()},
				PlanModifiers: []planmodifier.String{
					stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplaceIfConfigured(),
				},
			},
			"public_ip_enabled": schema.BoolAttribute{
				Optional: true, Computed: true, MarkdownDescription: describe("public_ip_enabled"),
				Default: booldefault.StaticBool(false),
			},
			"public_ip": schema.StringAttribute{
				Computed: true, MarkdownDescription: describe("public_ip"),
				PlanModifiers: []planmodifier.String{publicIPFollowsEnabled{"kept unless public_ip_enabled changes"}},
			},
			"organization_id": schema.StringAttribute{
				Computed: true, MarkdownDescription: describe("organization_id"), PlanModifiers: kept,
			},
			"project_id": schema.StringAttribute{
				Computed: true, MarkdownDescription: describe("project_id"), PlanModifiers: kept,
			},
			"region_id": schema.StringAttribute{
				Computed: true, MarkdownDescription: describe("region_id"), PlanModifiers: kept,
			},
			"provisioning_status": schema.StringAttribute{
				Computed: true, MarkdownDescription: describe("provisioning_status"),
			},
			"health_status": schema.StringAttribute{
				Computed: true, MarkdownDescription: describe("health_status"),
			},
			"listeners": schema.MapNestedAttribute{
				Required: true, MarkdownDescription: describe("listeners"),
				Validators:   []validator.Map{mapvalidator.SizeAtLeast(1)},
				NestedObject: schema.NestedAttributeObject{Attributes: listenerResourceAttributes()},
			},
		},
	}
}

func listenerResourceAttributes() map[string]schema.Attribute {
	describe := func(name string) string { return about(listenerAttributes, name) }

	// Zero is how the façade says "region's default", so it is refused here; the
	// upper bounds are the façade's rules, checked by the resource's ValidateConfig.
	atLeastOne := []validator.Int64{int64validator.AtLeast(1)}

	defaulted := func(name string, value int64) schema.Int64Attribute {
		return schema.Int64Attribute{
			Optional: true, Computed: true, MarkdownDescription: describe(name), Default: int64default.StaticInt64(value),
			Validators: atLeastOne,
		}
	}

	return map[string]schema.Attribute{
		"protocol": schema.StringAttribute{
			Required: true, MarkdownDescription: describe("protocol"),
			Validators: []validator.String{stringvalidator.OneOf(loadbalancing.ProtocolTCP, loadbalancing.ProtocolUDP)},
		},
		"port": schema.Int64Attribute{
			Required: true, MarkdownDescription: describe("port"),
		},
		"allowed_cidrs": schema.SetAttribute{
			Optional: true, ElementType: types.StringType, MarkdownDescription: describe("allowed_cidrs"),
		},
		"idle_timeout_seconds": schema.Int64Attribute{
			Optional: true, Computed: true, MarkdownDescription: describe("idle_timeout_seconds"),
			PlanModifiers: []planmodifier.Int64{
				idleTimeoutDefault{"defaults to region's idle timeout for the listener's protocol"},
			}, Validators: atLeastOne,
		},
		"proxy_protocol_v2": schema.BoolAttribute{
			Optional: true, Computed: true, MarkdownDescription: describe("proxy_protocol_v2"),
			Default: booldefault.StaticBool(false),
		},
		"members": schema.SetNestedAttribute{
			Optional: true, Computed: true, MarkdownDescription: describe("members"), CustomType: newMemberSetType(),
			Default: setdefault.StaticValue(types.SetValueMust(memberType, []attr.Value{})),
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"address": schema.StringAttribute{Required: true, MarkdownDescription: describe("member_address")},
				"port":    schema.Int64Attribute{Required: true, MarkdownDescription: describe("member_port")},
			}},
		},
		"health_check": schema.SingleNestedAttribute{
			Optional: true, MarkdownDescription: describe("health_check"),
			Attributes: map[string]schema.Attribute{
				"interval_seconds":    defaulted("interval_seconds", loadbalancing.DefaultHealthCheckIntervalSeconds),
				"timeout_seconds":     defaulted("timeout_seconds", loadbalancing.DefaultHealthCheckTimeoutSeconds),
				"healthy_threshold":   defaulted("healthy_threshold", loadbalancing.DefaultHealthCheckHealthyThreshold),
				"unhealthy_threshold": defaulted("unhealthy_threshold", loadbalancing.DefaultHealthCheckUnhealthyThreshold),
			},
		},
	}
}
