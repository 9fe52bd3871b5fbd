package provider

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/kubernetes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/seal"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
)

// Attribute names of the provider block.
const (
	attrRegionEndpoint   = "region_endpoint"
	attrIdentityEndpoint = "identity_endpoint"
	attrToken            = "token"
	attrOrganizationID   = "organization_id"
	attrProjectID        = "project_id"
	attrCACertificate    = "ca_certificate"
	attrInsecure         = "insecure"
	attrRequestTimeout   = "request_timeout"
	attrComputeEndpoint  = "compute_endpoint"
	attrInstanceAPI      = "instance_api"
	attrTokenSealKey     = "token_seal_key"
)

// Environment variables that stand in for unset attributes.
const (
	envRegionEndpoint   = "UNIKORN_REGION_ENDPOINT"
	envIdentityEndpoint = "UNIKORN_IDENTITY_ENDPOINT"
	envToken            = "UNIKORN_TOKEN"
	envOrganizationID   = "UNIKORN_ORGANIZATION_ID"
	envProjectID        = "UNIKORN_PROJECT_ID"
	envComputeEndpoint  = "UNIKORN_COMPUTE_ENDPOINT"
	envInstanceAPI      = "UNIKORN_INSTANCE_API"
	envTokenSealKey     = "UNIKORN_TOKEN_SEAL_KEY"
)

// The instance back ends instance_api chooses between.
const (
	// instanceAPICompute is compute's public instance API, which every project member
	// may call.
	instanceAPICompute = "compute"
	// instanceAPIRegion is this provider's own saga over region's servers and
	// identity's allocations, service APIs that only service accounts may call.
	instanceAPIRegion = "region"
)

var instanceAPIs = []string{instanceAPICompute, instanceAPIRegion}

// providerModel is the provider block as Terraform hands it over.
type providerModel struct {
	RegionEndpoint   types.String `tfsdk:"region_endpoint"`
	IdentityEndpoint types.String `tfsdk:"identity_endpoint"`
	Token            types.String `tfsdk:"token"`
	OrganizationID   types.String `tfsdk:"organization_id"`
	ProjectID        types.String `tfsdk:"project_id"`
	CACertificate    types.String `tfsdk:"ca_certificate"`
	Insecure         types.Bool   `tfsdk:"insecure"`
	RequestTimeout   types.String `tfsdk:"request_timeout"`
	ComputeEndpoint  types.String `tfsdk:"compute_endpoint"`
	InstanceAPI      types.String `tfsdk:"instance_api"`
	TokenSealKey     types.String `tfsdk:"token_seal_key"`
}

// setting is one value with an environment fallback.
type setting struct {
	attribute string
	envVar    string
	// what the value is, for messages: "the base URL of the Unikorn region API".
	what     string
	required bool
	isURL    bool
	isID     bool
	// isToken trims what a file read with file() brings along, and refuses a value
	// that still cannot travel in an HTTP header.
	isToken bool
	// isSealKey wants a base64-encoded AES-256 key.
	isSealKey bool
	// oneOf, when set, lists the only values accepted.
	oneOf []string
}

// configure turns the provider block and the environment into the data every type
// receives. It reports every problem at once, one diagnostic per value, so a user
// fixes a configuration in one go rather than one error per run.
//
// A value not known yet (in a plan, one that comes from an object the same run
// makes: a project's ID, a service account's token) is not an error: it is recorded
// as pending, and when reaching Unikorn needs it, the types get no façades and plan
// without the cloud. Terraform configures the provider again, with every value
// known, before it applies.
func configure(model providerModel, version string, getenv func(string) string) (*providerdata.Data, diag.Diagnostics) {
	var (
		diags   diag.Diagnostics
		pending []string
	)

	resolve := func(value types.String, s setting) string {
		if value.IsUnknown() {
			pending = append(pending, s.attribute)

			return ""
		}

		resolved, source := value.ValueString(), fmt.Sprintf("%q", s.attribute)
		if !value.IsNull() && resolved == "" {
			// An empty value is a mistake (an unset variable, say), not a wish to fall
			// back to the environment.
			diags.Append(diagnostic.AttributeError(path.Root(s.attribute),
				"Empty "+s.attribute,
				fmt.Sprintf("%q is set to an empty string.", s.attribute),
				fmt.Sprintf("Give it a value, or remove it to use the %s environment variable.", s.envVar),
			))

			return ""
		}

		if resolved == "" {
			resolved, source = getenv(s.envVar), s.envVar
		}

		if s.isToken {
			resolved = strings.TrimSpace(resolved)
		}

		switch {
		case resolved != "" && s.isSealKey:
			if _, err := seal.ParseKey(resolved); err != nil {
				diags.Append(diagnostic.AttributeError(path.Root(s.attribute),
					"Invalid "+s.attribute,
					fmt.Sprintf("The value of %s %s (the value itself is not shown).", source, err),
					"Give 32 random bytes, base64-encoded, such as `openssl rand -base64 32` prints.",
				))
			}
		case resolved == "" && s.required:
			diags.Append(diagnostic.AttributeError(path.Root(s.attribute),
				"Missing "+s.attribute,
				fmt.Sprintf("The provider needs %s and was given none.", s.what),
				fmt.Sprintf("Set %q in the provider block or the %s environment variable.", s.attribute, s.envVar),
			))
		case s.isToken && strings.IndexFunc(resolved, invalidInHeader) >= 0:
			diags.Append(diagnostic.AttributeError(path.Root(s.attribute),
				"Invalid "+s.attribute,
				fmt.Sprintf("The value of %s contains spaces or control characters inside it, which a token never has "+
					"(the value itself is not shown).", source),
				"Check that it holds exactly one token; surrounding whitespace, such as the newline file() keeps, is removed.",
			))
		case resolved != "" && s.isID && !validators.IsUUID(resolved):
			diags.Append(diagnostic.AttributeError(path.Root(s.attribute),
				"Invalid "+s.attribute,
				fmt.Sprintf("The value of %s, %q, is not a Unikorn ID.", source, resolved),
				"Give the ID (a lowercase UUID such as c0000000-0000-4000-8000-000000000001), not the name.",
			))
		case resolved != "" && len(s.oneOf) > 0 && !slices.Contains(s.oneOf, resolved):
			diags.Append(diagnostic.AttributeError(path.Root(s.attribute),
				"Invalid "+s.attribute,
				fmt.Sprintf("The value of %s, %q, is not one of %q.", source, resolved, s.oneOf),
				fmt.Sprintf("Set it to one of %q, or leave it and %s unset to choose by whether a compute endpoint is set.",
					s.oneOf, s.envVar),
			))

			resolved = ""
		case resolved != "" && s.isURL:
			if err := checkEndpoint(resolved); err != nil {
				diags.Append(diagnostic.AttributeError(path.Root(s.attribute),
					"Invalid "+s.attribute,
					fmt.Sprintf("The value of %s, %q, %s.", source, resolved, err),
					"Give the service's base URL, such as https://region.example.com.",
				))
			}
		}

		return resolved
	}

	// The back end decides which endpoints are needed, so it is settled first.
	instanceAPI := resolve(model.InstanceAPI, setting{
		attribute: attrInstanceAPI, envVar: envInstanceAPI,
		what: "the instance API to use", oneOf: instanceAPIs,
	})
	computeEndpoint := resolve(model.ComputeEndpoint, setting{
		attribute: attrComputeEndpoint, envVar: envComputeEndpoint,
		what: "the base URL of the Unikorn compute API", required: instanceAPI == instanceAPICompute, isURL: true,
	})

	// Until both are known, the back end is not, nor whether identity's endpoint is
	// needed: nothing is called before they are.
	if instanceAPI == "" && !diags.HasError() && len(pending) == 0 {
		instanceAPI = instanceAPIRegion
		if computeEndpoint != "" {
			instanceAPI = instanceAPICompute
		}
	}

	cfg := cloud.Settings{
		RegionEndpoint: resolve(model.RegionEndpoint, setting{
			attribute: attrRegionEndpoint, envVar: envRegionEndpoint,
			what: "the base URL of the Unikorn region API", required: true, isURL: true,
		}),
		IdentityEndpoint: resolve(model.IdentityEndpoint, setting{
			attribute: attrIdentityEndpoint, envVar: envIdentityEndpoint,
			// Only the region back end calls identity (for quota allocations).
			what: "the base URL of the Unikorn identity API", required: instanceAPI == instanceAPIRegion, isURL: true,
		}),
		Token: resolve(model.Token, setting{
			attribute: attrToken, envVar: envToken,
			what: "an API token", required: true, isToken: true,
		}),
		ComputeEndpoint: computeEndpoint,
		UserAgent:       "terraform-provider-unikorn/" + version,
	}

	for _, s := range []struct {
		attribute string
		value     attr.Value
	}{
		{attrCACertificate, model.CACertificate},
		{attrInsecure, model.Insecure},
		{attrRequestTimeout, model.RequestTimeout},
	} {
		if s.value.IsUnknown() {
			pending = append(pending, s.attribute)
		}
	}

	// Everything so far is needed to reach Unikorn; what follows only chooses
	// defaults and seals tokens.
	offline := len(pending) > 0

	organizationID := resolve(model.OrganizationID, setting{attribute: attrOrganizationID, envVar: envOrganizationID, isID: true})
	projectID := resolve(model.ProjectID, setting{attribute: attrProjectID, envVar: envProjectID, isID: true})
	sealKey := resolve(model.TokenSealKey, setting{attribute: attrTokenSealKey, envVar: envTokenSealKey, isSealKey: true})

	cfg.CACertificate = model.CACertificate.ValueString()
	cfg.Insecure = model.Insecure.ValueBool()

	if timeout := model.RequestTimeout.ValueString(); timeout != "" {
		// The schema validator has already rejected anything but a positive duration.
		d, err := time.ParseDuration(timeout)
		if err != nil {
			diags.AddAttributeError(path.Root(attrRequestTimeout), "Invalid request_timeout", err.Error())
		}

		cfg.RequestTimeout = d
	}

	if diags.HasError() {
		return nil, diags
	}

	data := &providerdata.Data{
		InstanceAPI:    instanceAPI,
		OrganizationID: organizationID,
		ProjectID:      projectID,
		Pending:        pending,
		Offline:        offline,
		Tokens:         &providerdata.Tokens{},
	}

	if sealKey != "" {
		data.SealKey, _ = seal.ParseKey(sealKey) // checked by resolve
	}

	if offline {
		return data, diags
	}

	cfg.Logger = apiLogger(cfg.Token)
	cfg.OmitBodies = !apiBodiesLogged()

	session, err := cloud.Connect(cfg)
	if err != nil {
		diags.Append(diagnostic.Error(
			"Unable to create the Unikorn API client",
			err.Error(),
			"Check the provider's settings, in particular ca_certificate, which must be PEM.",
		))

		return nil, diags
	}

	// Every family shares the session: its poll grid, and what it learns of how long
	// changes take.
	service := compute.NewService(session)

	var instances compute.Instances = compute.NewRegionInstances(service)
	if instanceAPI == instanceAPICompute {
		instances = compute.NewComputeInstances(service.HeldByComputeInstances())
	}

	data.Instances = instances
	data.Catalogue = service
	data.Images = service
	networks := networking.NewService(session)
	if instanceAPI == instanceAPICompute {
		networks = networks.HeldByComputeInstances()
	}

	data.Networking = networks
	data.LoadBalancers = loadbalancing.NewService(session)
	data.Storage = storage.NewService(session)
	data.Kubernetes = kubernetes.NewService(session)
	data.Identity = identity.NewService(session)

	return data, diags
}

// invalidInHeader reports runes that cannot be part of a bearer token in a header.
func invalidInHeader(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r)
}

// checkEndpoint accepts an absolute http or https URL; the client needs a base to
// append API paths to.
func checkEndpoint(endpoint string) error {
	u, err := url.Parse(endpoint)
	if err != nil {
		return fmt.Errorf("is not a URL (%w)", err)
	}

	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("is not an absolute http or https URL")
	}

	return nil
}
