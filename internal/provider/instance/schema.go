package instance

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

func (r *Resource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	useState := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}

	resp.Schema = schema.Schema{
		MarkdownDescription: "A compute instance: a virtual or bare-metal machine on a Unikorn network. " +
			"Creating one charges the organization's quota; changing its name, network, flavor, image, " +
			"user data or SSH certificate authority replaces it, everything else is updated in place.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: resourceDescription("id"),
				PlanModifiers:       useState,
			},
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: resourceDescription("name"),
				PlanModifiers:       replace,
				Validators:          []validator.String{validators.Name("instance")},
			},
			"network_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: resourceDescription("network_id"),
				PlanModifiers:       replace,
				Validators:          []validator.String{validators.UUID()},
			},
			"flavor_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: resourceDescription("flavor_id"),
				PlanModifiers:       replace,
				Validators:          []validator.String{validators.UUID()},
			},
			"image_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: resourceDescription("image_id"),
				PlanModifiers:       replace,
				Validators:          []validator.String{validators.UUID()},
			},
			"user_data": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: resourceDescription("user_data"),
				PlanModifiers:       replace,
				Validators: []validator.String{
					stringvalidator.LengthAtLeast(1),
					stringvalidator.ConflictsWith(path.MatchRoot("user_data_wo")),
				},
			},
			"user_data_wo": schema.StringAttribute{
				Optional:            true,
				WriteOnly:           true,
				Sensitive:           true,
				MarkdownDescription: resourceDescription("user_data_wo"),
				Validators: []validator.String{
					stringvalidator.LengthAtLeast(1),
					stringvalidator.AlsoRequires(path.MatchRoot("user_data_wo_version")),
				},
			},
			"user_data_wo_version": schema.Int64Attribute{
				Optional:            true,
				MarkdownDescription: resourceDescription("user_data_wo_version"),
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.RequiresReplace()},
			},
			"ssh_certificate_authority_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: resourceDescription("ssh_certificate_authority_id"),
				PlanModifiers:       replace,
				Validators:          []validator.String{validators.UUID()},
			},
			"security_group_ids": schema.SetAttribute{
				Optional:            true,
				ElementType:         types.StringType,
				MarkdownDescription: resourceDescription("security_group_ids"),
				Validators:          []validator.Set{setvalidator.ValueStringsAre(validators.UUID())},
			},
			"public_ip": schema.BoolAttribute{
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
				MarkdownDescription: resourceDescription("public_ip"),
			},
			"allowed_source_addresses": schema.SetAttribute{
				Optional:            true,
				ElementType:         types.StringType,
				MarkdownDescription: resourceDescription("allowed_source_addresses"),
				Validators:          []validator.Set{setvalidator.ValueStringsAre(validators.IPv4Prefix("Invalid allowed source address"))},
			},
			"volume_ids": schema.SetAttribute{
				Optional:            true,
				ElementType:         types.StringType,
				MarkdownDescription: resourceDescription("volume_ids"),
				Validators:          []validator.Set{setvalidator.ValueStringsAre(validators.UUID())},
			},
			"volume_attachments": schema.MapNestedAttribute{
				Computed:            true,
				MarkdownDescription: resourceDescription("volume_attachments"),
				PlanModifiers:       []planmodifier.Map{attachmentsFollowVolumes{"kept while volume_ids does not change"}},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"device": schema.StringAttribute{Computed: true, MarkdownDescription: descriptionAttachmentDevice},
					"status": schema.StringAttribute{Computed: true, MarkdownDescription: descriptionAttachmentStatus},
				}},
			},
			"description": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: resourceDescription("description"),
			},
			"tags": schema.MapAttribute{
				Optional:            true,
				ElementType:         types.StringType,
				MarkdownDescription: resourceDescription("tags"),
				Validators:          []validator.Map{validators.TagNames()},
			},
			"organization_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: resourceDescription("organization_id"),
				PlanModifiers:       useState,
			},
			"project_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: resourceDescription("project_id"),
				PlanModifiers:       useState,
			},
			"region_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: resourceDescription("region_id"),
				PlanModifiers:       useState,
			},
			// What the cloud reports about a running instance carries no plan modifier:
			// a refresh may read a lagging copy of the server, so an apply that changes
			// the instance plans them unknown rather than promise the refreshed values.
			"private_ip": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: resourceDescription("private_ip"),
			},
			"public_ip_address": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: resourceDescription("public_ip_address"),
				PlanModifiers: []planmodifier.String{
					publicAddressUnlessToggled{"keeps the public address unless public_ip changes"},
				},
			},
			"mac_address": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: resourceDescription("mac_address"),
			},
			"power_state": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: resourceDescription("power_state"),
			},
			"provisioning_status": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: resourceDescription("provisioning_status"),
			},
			"health_status": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: resourceDescription("health_status"),
			},
			"creation_time": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: resourceDescription("creation_time"),
				PlanModifiers:       useState,
			},
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

func (r *Resource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "The instance ID.",
			},
			"organization_id": identityschema.StringAttribute{
				OptionalForImport: true,
				Description:       "The organization of the instance; narrows the search for it.",
			},
			"project_id": identityschema.StringAttribute{
				OptionalForImport: true,
				Description:       "The project of the instance; narrows the search for it.",
			},
		},
	}
}
