package networking

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

var (
	_ resource.ResourceWithConfigure   = (*sshCertificateAuthorityResource)(nil)
	_ resource.ResourceWithImportState = (*sshCertificateAuthorityResource)(nil)
	_ resource.ResourceWithIdentity    = (*sshCertificateAuthorityResource)(nil)
)

// NewSSHCertificateAuthorityResource returns the unikorn_ssh_certificate_authority resource.
func NewSSHCertificateAuthorityResource() resource.Resource {
	return &sshCertificateAuthorityResource{newManaged(SSHCertificateAuthorityTypeName, "SSH certificate authority", func() *sshCertificateAuthorityResourceModel { return &sshCertificateAuthorityResourceModel{} },
		networking.Objects.ReadSSHCertificateAuthority, networking.Objects.DeleteSSHCertificateAuthority, setAuthority,
		func(object *networking.SSHCertificateAuthority) *cloud.ProjectMetadata {
			return &object.Metadata
		})}
}

// sshCertificateAuthorityResource manages an SSH certificate authority. Region has no
// update for one, so every change replaces it.
type sshCertificateAuthorityResource struct {
	managed[networking.SSHCertificateAuthority, *sshCertificateAuthorityResourceModel]
}

type sshCertificateAuthorityResourceModel struct {
	sshCertificateAuthorityModel
	family.Timed
}

func (r *sshCertificateAuthorityResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	scope := []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()}

	resp.Schema = schema.Schema{
		MarkdownDescription: "An SSH certificate authority: instances given it (`ssh_certificate_authority_id`) " +
			"accept SSH certificates it signed. Region cannot change one, so every change replaces it. Region " +
			"refuses to delete one while an instance trusts it; see [Removing an object together with the references to it](../guides/removing-an-object-with-its-references.md).",
		Attributes: map[string]schema.Attribute{
			"timeouts": timeoutsAttribute(ctx, false),
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "ID of the SSH certificate authority.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required: true, MarkdownDescription: "Name of the SSH certificate authority: " + validators.NameRule + ". Changing it replaces the authority.",
				PlanModifiers: replace, Validators: []validator.String{validators.Name("SSH certificate authority")},
			},
			"description": schema.StringAttribute{
				Optional: true, PlanModifiers: replace,
				MarkdownDescription: "Description of the SSH certificate authority. Changing it replaces the authority.",
			},
			"tags": schema.MapAttribute{
				Optional: true, ElementType: types.StringType,
				PlanModifiers:       []planmodifier.Map{mapplanmodifier.RequiresReplace()},
				MarkdownDescription: "Tags of the SSH certificate authority, by name. Changing them replaces the authority.",
			},
			"organization_id": schema.StringAttribute{
				Optional: true, Computed: true, PlanModifiers: scope,
				MarkdownDescription: "Organization of the authority; defaults to the provider's `organization_id`.",
				Validators:          []validator.String{validators.UUID()},
			},
			"project_id": schema.StringAttribute{
				Optional: true, Computed: true, PlanModifiers: scope,
				MarkdownDescription: "Project of the authority; defaults to the provider's `project_id`. Only instances " +
					"of this project can use it.",
				Validators: []validator.String{validators.UUID()},
			},
			"public_key": schema.StringAttribute{
				Required: true, PlanModifiers: replace,
				MarkdownDescription: "Public key of the authority, as one OpenSSH `authorized_keys` line: " +
					"`ssh-ed25519`, `ssh-rsa` or `ecdsa-sha2-nistp256/384/521`. Region drops the comment; " +
					"a key that differs only by its comment or spacing is the same key and shows no diff.",
				Validators: []validator.String{certificateAuthorityKey{"one OpenSSH public key line of a type region accepts"}},
			},
		},
	}
}

func (r *sshCertificateAuthorityResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan sshCertificateAuthorityResourceModel

	r.Write(ctx, req.Plan, &plan, family.Created(resp), func(ctx context.Context, diags *diag.Diagnostics) (*networking.SSHCertificateAuthority, error) {
		organizationID := r.Provider.Organization(plan.OrganizationID, pathOrganizationID, diags)
		projectID := r.Provider.Project(plan.ProjectID, pathProjectID, diags)
		metadata := plan.Write(ctx, diags)

		if diags.HasError() {
			return nil, nil
		}

		return r.Provider.Networking.CreateSSHCertificateAuthority(ctx, networking.SSHCertificateAuthorityCreate{
			Metadata: metadata, OrganizationID: organizationID, ProjectID: projectID,
			PublicKey: plan.PublicKey.ValueString(),
		})
	})
}

// Update is never called with a change, every attribute replaces; it only carries
// over the state of an apply that changed nothing region holds.
func (r *sshCertificateAuthorityResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.Append(resp.State.Set(ctx, req.Plan.Raw)...)
}

// setAuthority fills the model from region's record, keeping the configured key
// while region holds the same key: region drops the comment, which is no change.
func setAuthority(ctx context.Context, m *sshCertificateAuthorityResourceModel, authority *networking.SSHCertificateAuthority, diags *diag.Diagnostics) {
	configured := m.PublicKey
	m.setKept(ctx, &authority.Metadata, diags)
	m.set(ctx, authority, diags)

	if normalized, err := compute.NormalizeCertificateAuthorityKey(configured.ValueString()); err == nil && normalized == authority.PublicKey {
		m.PublicKey = configured
	}
}

// certificateAuthorityKey accepts the public keys region accepts for an authority.
type certificateAuthorityKey struct{ validators.Described }

func (certificateAuthorityKey) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}

	if _, err := compute.NormalizeCertificateAuthorityKey(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.Append(diagnostic.AttributeError(req.Path, "Invalid SSH certificate authority key",
			"The public key is not one region accepts: "+err.Error()+".",
			"Give the authority's public key as one line, e.g. the contents of ca.pub made by ssh-keygen -t ed25519."))
	}
}
