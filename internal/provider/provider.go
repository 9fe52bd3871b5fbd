// Package provider is the Terraform provider for Unikorn Cloud: its
// configuration and the registry of every Terraform type it serves. The types
// themselves live in sub-packages, one per family.
package provider

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/catalogue"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/console"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instance"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instanceaction"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/kubernetes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/snapshot"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/sshkey"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/storage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/volumes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// Address is where the provider is published in the Terraform Registry.
const Address = "registry.terraform.io/unikorn-cloud/unikorn"

// TypeName is the provider's local name, the prefix of every type it serves.
const TypeName = "unikorn"

// The provider has every capability that its Terraform types need; the assertions
// keep a signature change in the framework from silently dropping one.
var (
	_ provider.Provider                       = (*unikornProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*unikornProvider)(nil)
	_ provider.ProviderWithActions            = (*unikornProvider)(nil)
	_ provider.ProviderWithListResources      = (*unikornProvider)(nil)
)

type unikornProvider struct {
	// version is the provider's release, "dev" for local builds, "test" in tests.
	version string
}

// New returns the constructor that the plugin server (and the acceptance tests) call
// once per provider instance Terraform starts.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &unikornProvider{version: version}
	}
}

func (p *unikornProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = TypeName
	resp.Version = p.version
}

func (p *unikornProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages [Unikorn Cloud](https://github.com/unikorn-cloud): compute instances, " +
			"through compute's public API or, for tokens with service rights, region's; the networks, security " +
			"groups and SSH certificate authorities they stand on; snapshots, custom images, load balancers and file " +
			"storage; and identity's projects, groups, service accounts and users. It also looks up the catalogue. " +
			"Every setting can also come from the environment, so a provider block may be empty.",
		Attributes: map[string]schema.Attribute{
			attrToken: schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "Bearer token of a Unikorn user or service account. " +
					"Defaults to the `" + envToken + "` environment variable; prefer that to writing it in a file. " +
					"Surrounding whitespace (the newline of `file(\"token.txt\")`) is removed.",
			},
			attrOrganizationID: schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "ID of the organization that look-ups use when they are not given one. " +
					"Defaults to the `" + envOrganizationID + "` environment variable.",
				Validators: []validator.String{validators.UUID()},
			},
			attrProjectID: schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "ID of the project that look-ups use when they are not given one. " +
					"Defaults to the `" + envProjectID + "` environment variable.",
				Validators: []validator.String{validators.UUID()},
			},
			attrCACertificate: schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "PEM bundle of certificate authorities to trust in addition to the " +
					"system's, for endpoints with a private CA.",
			},
			attrInsecure: schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Skip verification of the endpoints' TLS certificates. " +
					"Only for test environments: anyone on the path can read the token.",
			},
			attrRequestTimeout: schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Longest time one API request may take, as a duration such as " +
					"`\"30s\"` or `\"2m\"`. Defaults to `\"60s\"`. Waiting for an object to be ready or gone is " +
					"bounded by its resource's `timeouts`, not by this.",
				Validators: []validator.String{validators.PositiveDuration()},
			},
			attrInstanceAPI: schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Which API realizes instances: `\"compute\"`, compute's public instance API, which " +
					"every project member may call; or `\"region\"`, region's server and identity's allocation APIs, " +
					"which only tokens with service rights may call. Defaults to the `" + envInstanceAPI + "` environment " +
					"variable, else `compute` when a compute endpoint is set and `region` otherwise. Only `region` " +
					"requires `identity_endpoint`.",
				Validators: []validator.String{stringvalidator.OneOf(instanceAPIs...)},
			},
			attrTokenSealKey: schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "Key that seals the access tokens of the service accounts this provider block " +
					"creates or rotates, so that `unikorn_service_account` keeps them in state only encrypted " +
					"(AES-256-GCM), and `unikorn_service_account_token` opens them in later runs: 32 random bytes, " +
					"base64-encoded, as `openssl rand -base64 32` prints them. Defaults to the `" + envTokenSealKey +
					"` environment variable. Terraform writes a provider's configuration neither to the state nor to " +
					"the plan, so the key stays wherever you keep it (a secret store, a CI secret); without it, no " +
					"token is kept at all, and only the run that created or rotated an account can hand its token on. " +
					"See the guide \"From an empty project\".",
			},
		},
	}

	// Each service's endpoint, as its declaration describes it.
	for _, service := range services.All() {
		resp.Schema.Attributes[service.Attribute()] = schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: service.MarkdownDescription(),
		}
	}
}

func (p *unikornProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	model, diags := readModel(ctx, req.Config)

	resp.Diagnostics.Append(diags...)

	if resp.Diagnostics.HasError() {
		return
	}

	data, diags := configure(model, p.version, os.Getenv)

	resp.Diagnostics.Append(diags...)

	if resp.Diagnostics.HasError() {
		return
	}

	tflog.Debug(ctx, "configured the Unikorn API client", map[string]any{
		"organization_id": data.OrganizationID,
		"project_id":      data.ProjectID,
		"pending":         data.Pending,
	})

	resp.DataSourceData = data
	resp.ResourceData = data
	resp.EphemeralResourceData = data
	resp.ActionData = data
	resp.ListResourceData = data
}

// Resources lists the managed resource types; add a constructor here to serve one.
func (p *unikornProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		instance.NewResource,
		networking.NewNetworkResource,
		networking.NewSecurityGroupResource,
		networking.NewSSHCertificateAuthorityResource,
		snapshot.NewResource,
		image.NewResource,
		identity.NewProjectResource,
		identity.NewGroupResource,
		identity.NewServiceAccountResource,
		identity.NewUserResource,
		loadbalancing.NewResource,
		storage.NewResource,
		volumes.NewResource,
		kubernetes.NewResource,
	}
}

// DataSources lists the data source types; add a constructor here to serve one.
func (p *unikornProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		catalogue.NewRegionsDataSource,
		catalogue.NewFlavorsDataSource,
		catalogue.NewImagesDataSource,
		instance.NewDataSource,
		sshkey.NewDataSource,
		console.NewDataSource,
		networking.NewNetworkDataSource,
		networking.NewSecurityGroupDataSource,
		networking.NewSSHCertificateAuthorityDataSource,
		identity.NewRolesDataSource,
		identity.NewRoleDataSource,
		identity.NewQuotasDataSource,
		identity.NewProjectDataSource,
		identity.NewGroupDataSource,
		identity.NewUserDataSource,
		identity.NewOrganizationDataSource,
		loadbalancing.NewDataSource,
		storage.NewDataSource,
		storage.NewClassesDataSource,
		volumes.NewDataSource,
		volumes.NewClassesDataSource,
		kubernetes.NewDataSource,
		kubernetes.NewVersionsDataSource,
	}
}

// EphemeralResources lists the ephemeral resource types; add a constructor here to serve one.
func (p *unikornProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		sshkey.NewEphemeralResource,
		identity.NewTokenEphemeralResource,
		kubernetes.NewKubeconfigEphemeralResource,
	}
}

// Actions lists the action types; add a constructor here to serve one.
func (p *unikornProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{
		instanceaction.NewPower,
		instanceaction.NewSnapshot,
	}
}

// ListResources lists the list resource types (for `terraform query`); add a
// constructor here to serve one.
func (p *unikornProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		instance.NewListResource,
		networking.NewNetworkListResource,
		networking.NewSecurityGroupListResource,
		networking.NewSSHCertificateAuthorityListResource,
		identity.NewProjectListResource,
		identity.NewGroupListResource,
		identity.NewServiceAccountListResource,
		identity.NewUserListResource,
		loadbalancing.NewListResource,
		storage.NewListResource,
		volumes.NewListResource,
		kubernetes.NewListResource,
	}
}
