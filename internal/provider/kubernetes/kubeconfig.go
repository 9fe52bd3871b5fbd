package kubernetes

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/kubernetes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

var pathClusterID = path.Root("cluster_id")

var (
	_ ephemeral.EphemeralResource              = (*kubeconfigEphemeral)(nil)
	_ ephemeral.EphemeralResourceWithConfigure = (*kubeconfigEphemeral)(nil)
)

// NewKubeconfigEphemeralResource returns the unikorn_kubernetes_cluster_kubeconfig
// ephemeral resource.
func NewKubeconfigEphemeralResource() ephemeral.EphemeralResource {
	return &kubeconfigEphemeral{family.Ephemeral{DataSource: family.DataSource{
		Name: KubeconfigTypeName, Looks: "read the Kubernetes cluster's kubeconfig",
	}}}
}

// kubeconfigEphemeral reads a cluster's administrator kubeconfig each time Terraform
// needs it, and hands it and its parts on; it never reaches the plan or the state.
type kubeconfigEphemeral struct {
	family.Ephemeral
}

type kubeconfigModel struct {
	ClusterID            types.String `tfsdk:"cluster_id"`
	OrganizationID       types.String `tfsdk:"organization_id"`
	Kubeconfig           types.String `tfsdk:"kubeconfig"`
	Host                 types.String `tfsdk:"host"`
	ClusterCACertificate types.String `tfsdk:"cluster_ca_certificate"`
	ClientCertificate    types.String `tfsdk:"client_certificate"`
	ClientKey            types.String `tfsdk:"client_key"`
	Token                types.String `tfsdk:"token"`
}

func (e *kubeconfigEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	secret := func(description string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, Sensitive: true, MarkdownDescription: description}
	}

	resp.Schema = schema.Schema{
		MarkdownDescription: "A Kubernetes cluster's administrator kubeconfig, read from the Kubernetes service each " +
			"time Terraform needs it (Terraform 1.10+, OpenTofu 1.11+) and never written to the plan, the state or " +
			"the logs. Give its parts to the `kubernetes` and `helm` providers' blocks, or the whole of it to a " +
			"write-only attribute of a secret store. Any token that may read the cluster may read it (the " +
			"`reader` and `auditor` roles included), and it grants administrator rights in the cluster. The " +
			"service makes it while it provisions the cluster: until then its values are not known, with a " +
			"warning, and Terraform reads it again when it applies, after the cluster it depends on is made.",
		Attributes: map[string]schema.Attribute{
			"cluster_id": schema.StringAttribute{
				Required: true, MarkdownDescription: "ID of the cluster (`unikorn_kubernetes_cluster.<name>.id`).",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"organization_id": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: descriptionOrganizationID + " Defaults to the provider's `organization_id`.",
				Validators:          []validator.String{validators.UUID()},
			},
			"kubeconfig": secret("The whole kubeconfig, YAML, as `kubectl` reads it."),
			"host": schema.StringAttribute{
				Computed: true, MarkdownDescription: "URL of the cluster's Kubernetes API: the `kubernetes` provider's `host`.",
			},
			"cluster_ca_certificate": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "PEM of the authority that signed the API's certificate: the `kubernetes` " +
					"provider's `cluster_ca_certificate`.",
			},
			"client_certificate": schema.StringAttribute{
				Computed: true, MarkdownDescription: "PEM of the administrator's client certificate: the `kubernetes` " +
					"provider's `client_certificate`; null when the kubeconfig authenticates by token.",
			},
			"client_key": secret("PEM of the client certificate's private key: the `kubernetes` provider's `client_key`; " +
				"null when the kubeconfig authenticates by token."),
			"token": secret("Bearer token: the `kubernetes` provider's `token`; null when the kubeconfig " +
				"authenticates by client certificate."),
		},
	}
}

func (e *kubeconfigEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var data kubeconfigModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &data)...); resp.Diagnostics.HasError() {
		return
	}

	// While the provider's configuration is not known (in a plan), the kubeconfig is
	// not either: Terraform opens the resource again when it applies.
	if !e.Provider.Online() {
		data.unknown()
		resp.Diagnostics.Append(resp.Result.Set(ctx, &data)...)

		return
	}

	organizationID := e.Organization(data.OrganizationID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	data.OrganizationID = types.StringValue(organizationID)

	kubeconfig, err := e.Provider.Kubernetes.Kubeconfig(ctx, organizationID, data.ClusterID.ValueString())

	var notProvisioned *kubernetes.NotProvisionedError

	switch {
	case errors.As(err, &notProvisioned):
		resp.Diagnostics.AddAttributeWarning(pathClusterID, "Kubeconfig not known yet", notProvisioned.Error()+
			". Its values are not known until then; Terraform reads it again when it applies, once the cluster "+
			"resource it depends on has waited for the cluster.")
		data.unknown()
	case err != nil:
		resp.Diagnostics.Append(diagnostic.Kubernetes("Unable to read the Kubernetes cluster's kubeconfig", err)...)

		return
	default:
		data.Kubeconfig = types.StringValue(kubeconfig.Raw)
		data.Host = types.StringValue(kubeconfig.Host)
		data.ClusterCACertificate = family.OptionalString(kubeconfig.CACertificate)
		data.ClientCertificate = family.OptionalString(kubeconfig.ClientCertificate)
		data.ClientKey = family.OptionalString(kubeconfig.ClientKey)
		data.Token = family.OptionalString(kubeconfig.Token)
	}

	resp.Diagnostics.Append(resp.Result.Set(ctx, &data)...)
}

// unknown leaves every value of the kubeconfig not known.
func (m *kubeconfigModel) unknown() {
	m.Kubeconfig, m.Host, m.ClusterCACertificate = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	m.ClientCertificate, m.ClientKey, m.Token = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
}
