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

// replacedWithLoss is said of every attribute whose change recreates the server.
const replacedWithLoss = " Changing it replaces the instance: the server, its disk and its IP addresses are lost."

func (r *Resource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	useState := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}

	resp.Schema = schema.Schema{
		MarkdownDescription: "A compute instance: a virtual or bare-metal machine on a Unikorn network. " +
			"Creating one charges the organization's quota; changing its name, network, flavor, image, " +
			"user data or SSH certificate authority replaces it, everything else is updated in place.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The instance ID. It derives from the network and the name (UUIDv5), so the same " +
					"name on the same network always has the same ID; it is known once the instance exists.",
				PlanModifiers: useState,
			},
			"name": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The instance name, unique on its network: 1 to 63 letters, digits, `-`, `_` or `.`, " +
					"starting and ending with a letter or digit. Names are immutable." + replacedWithLoss,
				PlanModifiers: replace,
				Validators:    []validator.String{nameValidator{}},
			},
			"network_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The network the instance is attached to. The instance's organization, project " +
					"and region are those of the network." + replacedWithLoss,
				PlanModifiers: replace,
				Validators:    []validator.String{validators.UUID()},
			},
			"flavor_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The flavor (CPUs, memory, disk, GPUs); see the `unikorn_flavors` data source. " +
					"Its architecture must match the image's and its disk must hold the image." + replacedWithLoss,
				PlanModifiers: replace,
				Validators:    []validator.String{validators.UUID()},
			},
			"image_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The image to boot, which must be `ready`; see the `unikorn_images` data source. " +
					"Bare-metal images need a bare-metal flavor, virtualized images a virtual one." + replacedWithLoss,
				PlanModifiers: replace,
				Validators:    []validator.String{validators.UUID()},
			},
			"user_data": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Cloud-init configuration or script, applied at first boot only; the provider " +
					"encodes it. It is stored in the state: for secrets use `user_data_wo` instead." + replacedWithLoss,
				PlanModifiers: replace,
				Validators: []validator.String{
					stringvalidator.LengthAtLeast(1),
					stringvalidator.ConflictsWith(path.MatchRoot("user_data_wo")),
				},
			},
			"user_data_wo": schema.StringAttribute{
				Optional:  true,
				WriteOnly: true,
				Sensitive: true,
				MarkdownDescription: "Write-only user data, for configuration that holds secrets: it is sent when the " +
					"instance is created and never stored in the plan or state. Requires Terraform 1.11 or later. " +
					"Change `user_data_wo_version` to apply a new value (which replaces the instance).",
				Validators: []validator.String{
					stringvalidator.LengthAtLeast(1),
					stringvalidator.AlsoRequires(path.MatchRoot("user_data_wo_version")),
				},
			},
			"user_data_wo_version": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: "Version of `user_data_wo`; Terraform cannot see write-only values change, so " +
					"change this number when the value changes." + replacedWithLoss,
				PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplace()},
			},
			"ssh_certificate_authority_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "An SSH certificate authority, of the same organization and project as the network, " +
					"whose certificates may log in. With it, `user_data` must be a cloud-init document." + replacedWithLoss,
				PlanModifiers: replace,
				Validators:    []validator.String{validators.UUID()},
			},
			"security_group_ids": schema.SetAttribute{
				Optional:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Security groups of the instance's network to apply. Updated in place.",
				Validators:          []validator.Set{setvalidator.ValueStringsAre(validators.UUID())},
			},
			"public_ip": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
				MarkdownDescription: "Whether the instance gets a public IP address, which counts against the " +
					"organization's `floatingips` quota. Updated in place. Defaults to `false`.",
			},
			"allowed_source_addresses": schema.SetAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "IPv4 prefixes (CIDR) the instance may send packets from besides its own address, " +
					"for instances that route traffic. Updated in place.",
				Validators: []validator.Set{setvalidator.ValueStringsAre(cidrValidator{})},
			},
			"description": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "A free-form description. Updated in place.",
			},
			"tags": schema.MapAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "Tags (name to value). Names under a `*.unikorn-cloud.org` prefix are reserved by " +
					"Unikorn and rejected. Updated in place.",
				Validators: []validator.Map{tagNamesValidator{}},
			},
			"organization_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The organization the instance belongs to, taken from its network.",
				PlanModifiers:       useState,
			},
			"project_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The project the instance belongs to, taken from its network.",
				PlanModifiers:       useState,
			},
			"region_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The region the instance runs in, taken from its network.",
				PlanModifiers:       useState,
			},
			// What the cloud reports about a running instance carries no plan modifier:
			// a refresh may read a lagging copy of the server, so an apply that changes
			// the instance plans them unknown rather than promise the refreshed values.
			"private_ip": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The instance's IPv4 address on its network.",
			},
			"public_ip_address": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The instance's public IPv4 address, when `public_ip` is `true`.",
				PlanModifiers:       []planmodifier.String{publicAddressUnlessToggled{}},
			},
			"mac_address": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The MAC address of the instance's network interface.",
			},
			"power_state": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "`Pending`, `Running`, `Stopping` or `Stopped`. Change it with the " +
					"`unikorn_compute_instance_power` action; a refresh shows the result.",
			},
			"provisioning_status": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The cloud's provisioning status: `pending`, `provisioning`, `provisioned`, `deprovisioning` or `error`; " +
					"`deleted` when the server was deleted outside Terraform, so that the next apply replaces the instance " +
					"and releases its quota.",
			},
			"health_status": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The cloud's health status: `unknown`, `healthy`, `degraded` or `error`.",
			},
			"creation_time": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "When the instance was created (RFC 3339).",
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
