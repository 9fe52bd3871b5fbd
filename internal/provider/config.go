package provider

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/seal"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// Attribute names of the provider block, beside each service's endpoint, which its
// declaration names (internal/services).
const (
	attrToken          = "token"
	attrOrganizationID = "organization_id"
	attrProjectID      = "project_id"
	attrCACertificate  = "ca_certificate"
	attrInsecure       = "insecure"
	attrRequestTimeout = "request_timeout"
	attrInstanceAPI    = "instance_api"
	attrTokenSealKey   = "token_seal_key"
)

// Environment variables that stand in for unset attributes.
const (
	envToken          = "UNIKORN_TOKEN"
	envOrganizationID = "UNIKORN_ORGANIZATION_ID"
	envProjectID      = "UNIKORN_PROJECT_ID"
	envInstanceAPI    = "UNIKORN_INSTANCE_API"
	envTokenSealKey   = "UNIKORN_TOKEN_SEAL_KEY"
)

// The instance back ends instance_api chooses between.
const (
	instanceAPICompute = providerdata.InstanceAPICompute
	instanceAPIRegion  = providerdata.InstanceAPIRegion
)

var instanceAPIs = []string{instanceAPICompute, instanceAPIRegion}

// instanceAPINeeds is the service each back end needs beyond those every
// configuration needs: the region back end charges quota in identity.
var instanceAPINeeds = map[string]services.Service{
	instanceAPICompute: services.Compute,
	instanceAPIRegion:  services.Identity,
}

// providerModel is the provider block as Terraform hands it over.
type providerModel struct {
	// Endpoints are the services' endpoint attributes, which their declarations name
	// (see readModel).
	Endpoints      services.ByService[types.String] `tfsdk:"-"`
	Token          types.String                     `tfsdk:"token"`
	OrganizationID types.String                     `tfsdk:"organization_id"`
	ProjectID      types.String                     `tfsdk:"project_id"`
	CACertificate  types.String                     `tfsdk:"ca_certificate"`
	Insecure       types.Bool                       `tfsdk:"insecure"`
	RequestTimeout types.String                     `tfsdk:"request_timeout"`
	InstanceAPI    types.String                     `tfsdk:"instance_api"`
	TokenSealKey   types.String                     `tfsdk:"token_seal_key"`
}

// readModel reads the provider block: each service's endpoint by the attribute its
// declaration names, the other settings by the model's tags.
func readModel(ctx context.Context, config tfsdk.Config) (providerModel, diag.Diagnostics) {
	var (
		model providerModel
		block types.Object
	)

	diags := config.Get(ctx, &block)
	if diags.HasError() {
		return model, diags
	}

	var endpoints services.ByService[types.String]

	values, valueTypes := block.Attributes(), block.AttributeTypes(ctx)
	for _, service := range services.All() {
		// The schema makes every endpoint a string.
		endpoints[service], _ = values[service.Attribute()].(types.String)

		delete(values, service.Attribute())
		delete(valueTypes, service.Attribute())
	}

	rest, restDiags := types.ObjectValue(valueTypes, values)
	diags.Append(restDiags...)

	if !diags.HasError() {
		diags.Append(rest.As(ctx, &model, basetypes.ObjectAsOptions{})...)
	}

	// After As, which makes the model anew.
	model.Endpoints = endpoints

	return model, diags
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
	cfg, data, diags := resolveSettings(model, version, getenv)
	if diags.HasError() || data.Offline {
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

	data.Connect(session)

	return data, diags
}

// resolveSettings is configure's reading of the block and the environment: the
// settings that reach Unikorn, and the data without its façades; nil data when
// something is wrong.
func resolveSettings(model providerModel, version string, getenv func(string) string) (cloud.Settings, *providerdata.Data, diag.Diagnostics) {
	var (
		diags   diag.Diagnostics
		pending []string
	)

	// resolveInto resolves one setting, adding its problems to into.
	resolveInto := func(into *diag.Diagnostics, value types.String, s setting) string {
		if value.IsUnknown() {
			pending = append(pending, s.attribute)

			return ""
		}

		resolved, source := value.ValueString(), fmt.Sprintf("%q", s.attribute)
		if !value.IsNull() && resolved == "" {
			// An empty value is a mistake (an unset variable, say), not a wish to fall
			// back to the environment.
			into.Append(diagnostic.AttributeError(path.Root(s.attribute),
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
				into.Append(diagnostic.AttributeError(path.Root(s.attribute),
					"Invalid "+s.attribute,
					fmt.Sprintf("The value of %s %s (the value itself is not shown).", source, err),
					"Give 32 random bytes, base64-encoded, such as `openssl rand -base64 32` prints.",
				))
			}
		case resolved == "" && s.required:
			into.Append(missing(s))
		case s.isToken && strings.IndexFunc(resolved, invalidInHeader) >= 0:
			into.Append(diagnostic.AttributeError(path.Root(s.attribute),
				"Invalid "+s.attribute,
				fmt.Sprintf("The value of %s contains spaces or control characters inside it, which a token never has "+
					"(the value itself is not shown).", source),
				"Check that it holds exactly one token; surrounding whitespace, such as the newline file() keeps, is removed.",
			))
		case resolved != "" && s.isID && !validators.IsUUID(resolved):
			into.Append(diagnostic.AttributeError(path.Root(s.attribute),
				"Invalid "+s.attribute,
				fmt.Sprintf("The value of %s, %q, is not a Unikorn ID.", source, resolved),
				"Give the ID (a lowercase UUID such as c0000000-0000-4000-8000-000000000001), not the name.",
			))
		case resolved != "" && len(s.oneOf) > 0 && !slices.Contains(s.oneOf, resolved):
			into.Append(diagnostic.AttributeError(path.Root(s.attribute),
				"Invalid "+s.attribute,
				fmt.Sprintf("The value of %s, %q, is not one of %q.", source, resolved, s.oneOf),
				fmt.Sprintf("Set it to one of %q, or leave it and %s unset to choose by whether a compute endpoint is set.",
					s.oneOf, s.envVar),
			))

			resolved = ""
		case resolved != "" && s.isURL:
			if err := checkEndpoint(resolved); err != nil {
				into.Append(diagnostic.AttributeError(path.Root(s.attribute),
					"Invalid "+s.attribute,
					fmt.Sprintf("The value of %s, %q, %s.", source, resolved, err),
					"Give the service's base URL, such as https://region.example.com.",
				))
			}
		}

		return resolved
	}

	resolve := func(value types.String, s setting) string {
		return resolveInto(&diags, value, s)
	}

	// The back end decides which endpoints are needed, so it is settled first.
	instanceAPI := resolve(model.InstanceAPI, setting{
		attribute: attrInstanceAPI, envVar: envInstanceAPI,
		what: "the instance API to use", oneOf: instanceAPIs,
	})
	instanceAPISettled := !diags.HasError() && len(pending) == 0

	// Every service's endpoint, each problem reported at the service's place in the
	// declaration; whether a missing one is a problem waits for the back end.
	var (
		endpoints     services.Endpoints
		endpointDiags services.ByService[diag.Diagnostics]
		unsettled     services.ByService[bool]
	)

	for _, service := range services.All() {
		before := len(pending)
		endpoints[service] = resolveInto(&endpointDiags[service], model.Endpoints[service], setting{
			attribute: service.Attribute(), envVar: service.EnvVar(), what: service.What(), isURL: true,
		})
		unsettled[service] = len(pending) > before || endpointDiags[service].HasError()
	}

	// Until the compute endpoint is known, the back end is not, nor whether identity's
	// endpoint is needed: nothing is called before they are.
	if instanceAPI == "" && instanceAPISettled && !unsettled[services.Compute] {
		instanceAPI = instanceAPIRegion
		if endpoints[services.Compute] != "" {
			instanceAPI = instanceAPICompute
		}
	}

	for _, service := range services.All() {
		backendNeeds, chosen := instanceAPINeeds[instanceAPI]
		needed := service.Required() || (chosen && backendNeeds == service)
		if needed && endpoints[service] == "" && !unsettled[service] {
			endpointDiags[service].Append(missing(setting{
				attribute: service.Attribute(), envVar: service.EnvVar(), what: service.What(),
			}))
		}

		diags.Append(endpointDiags[service]...)
	}

	cfg := cloud.Settings{
		Endpoints: endpoints,
		Token: resolve(model.Token, setting{
			attribute: attrToken, envVar: envToken,
			what: "an API token", required: true, isToken: true,
		}),
		UserAgent: "terraform-provider-unikorn/" + version,
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
		return cfg, nil, diags
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

	return cfg, data, diags
}

// missing is the error of a setting that is needed and was given no value.
func missing(s setting) diag.Diagnostic {
	return diagnostic.AttributeError(path.Root(s.attribute),
		"Missing "+s.attribute,
		fmt.Sprintf("The provider needs %s and was given none.", s.what),
		fmt.Sprintf("Set %q in the provider block or the %s environment variable.", s.attribute, s.envVar),
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
