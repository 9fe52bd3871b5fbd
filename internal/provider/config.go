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
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
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
	// oneOf, when set, lists the only values accepted.
	oneOf []string
}

// configure turns the provider block and the environment into the data every type
// receives. It reports every problem at once, one diagnostic per value, so a user
// fixes a configuration in one go rather than one error per run.
func configure(model providerModel, version string, getenv func(string) string) (*providerdata.Data, diag.Diagnostics) {
	var diags diag.Diagnostics

	resolve := func(value types.String, s setting) string {
		if value.IsUnknown() {
			diags.Append(unknownValue(s.attribute, s.envVar))

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

	if instanceAPI == "" && !diags.HasError() {
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

	organizationID := resolve(model.OrganizationID, setting{attribute: attrOrganizationID, envVar: envOrganizationID, isID: true})
	projectID := resolve(model.ProjectID, setting{attribute: attrProjectID, envVar: envProjectID, isID: true})

	for _, s := range []struct {
		attribute string
		value     attr.Value
	}{
		{attrCACertificate, model.CACertificate},
		{attrInsecure, model.Insecure},
		{attrRequestTimeout, model.RequestTimeout},
	} {
		if s.value.IsUnknown() {
			diags.Append(unknownValue(s.attribute, ""))
		}
	}

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

	cfg.Logger = apiLogger(cfg.Token)

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
		instances = compute.NewComputeInstances(service)
	}

	return &providerdata.Data{
		Instances:      instances,
		InstanceAPI:    instanceAPI,
		Catalogue:      service,
		Images:         service,
		Networking:     networking.NewService(session),
		LoadBalancers:  loadbalancing.NewService(session),
		Storage:        storage.NewService(session),
		OrganizationID: organizationID,
		ProjectID:      projectID,
	}, diags
}

// unknownValue is the diagnostic for a setting that comes from something not yet
// created: the client is needed at plan time, so the provider cannot wait for it.
func unknownValue(attribute, envVar string) diag.Diagnostic {
	remedy := "Set it to a value known at plan time, or apply what it comes from first (terraform apply -target=…)."
	if envVar != "" {
		remedy += fmt.Sprintf(" The %s environment variable can also supply it.", envVar)
	}

	return diagnostic.AttributeError(path.Root(attribute),
		"Unknown "+attribute,
		fmt.Sprintf("The provider cannot create its API client because %q is not known until apply.", attribute),
		remedy,
	)
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
