// Package services declares the Unikorn services the provider calls, once: the
// provider block's attribute and environment variable that say where each is, the
// words that describe them, and where the sandbox serves each on its one listener.
// The provider's configuration, the wire client, the acceptance tests' environment
// and the sandbox command read the declaration, so that a service is added here and
// nowhere else. It imports nothing of the project, so that every layer may read it.
package services

import "strings"

// Service is one of Unikorn's services; it indexes ByService.
type Service int

// The services, in the order the provider's documentation lists their endpoints.
const (
	Region Service = iota
	Identity
	Compute
	Kubernetes

	// Count is the number of services; keep it last.
	Count
)

// declaration is what one service is to the provider.
type declaration struct {
	// name is Unikorn's name of the service, as messages use it: "region".
	name string
	// attribute is the provider block's attribute holding the service's base URL.
	attribute string
	// envVar stands in for the attribute when the block leaves it unset.
	envVar string
	// use is what the attribute's description says of it after its base URL and
	// variable: when it is needed, what setting it chooses. Empty for nothing more.
	use string
	// sandboxPrefix is where the sandbox serves the service under the one base URL it
	// listens on: "" at the root, "/compute" for compute, whose catalogue paths are
	// region's too.
	sandboxPrefix string
	// required services are needed whatever the provider does: the provider reports
	// them missing, and the wire client refuses to be made without them. The others
	// are needed by what calls them, and a call without an endpoint fails before
	// anything is sent.
	required bool
}

// declared holds every service's declaration, by Service.
var declared = [Count]declaration{
	Region: {
		name: "region", attribute: "region_endpoint", envVar: "UNIKORN_REGION_ENDPOINT",
		// Region also answers at /region in the sandbox, its own base URL there, for
		// Unikorn's API suites; the provider is pointed at the root.
		sandboxPrefix: "",
		required:      true,
	},
	Identity: {
		name: "identity", attribute: "identity_endpoint", envVar: "UNIKORN_IDENTITY_ENDPOINT",
		use: "Required with `instance_api = \"region\"`; identity's projects, groups, service accounts, roles and " +
			"quotas need it with either.",
		sandboxPrefix: "",
	},
	Compute: {
		name: "compute", attribute: "compute_endpoint", envVar: "UNIKORN_COMPUTE_ENDPOINT",
		use:           "Setting it makes `compute` the default `instance_api`.",
		sandboxPrefix: "/compute",
	},
	Kubernetes: {
		name: "kubernetes", attribute: "kubernetes_endpoint", envVar: "UNIKORN_KUBERNETES_ENDPOINT",
		use: "Kubernetes clusters, their kubeconfig and the Kubernetes versions regions offer need it.",
		// Its catalogue paths are region's and compute's too.
		sandboxPrefix: "/kubernetes",
	},
}

// All returns every service, in declaration order.
func All() []Service {
	all := make([]Service, Count)
	for i := range all {
		all[i] = Service(i)
	}

	return all
}

// Name is Unikorn's name of the service: "region".
func (s Service) Name() string { return declared[s].name }

// String is the service's name.
func (s Service) String() string { return s.Name() }

// Attribute is the provider block's attribute holding the service's base URL:
// "region_endpoint".
func (s Service) Attribute() string { return declared[s].attribute }

// EnvVar is the environment variable that stands in for the attribute:
// "UNIKORN_REGION_ENDPOINT".
func (s Service) EnvVar() string { return declared[s].envVar }

// Required reports whether the provider needs the service whatever it does.
func (s Service) Required() bool { return declared[s].required }

// SandboxPrefix is where the sandbox serves the service under its base URL: "" at
// the root, "/compute".
func (s Service) SandboxPrefix() string { return declared[s].sandboxPrefix }

// What names the value of the attribute, for messages: "the base URL of the Unikorn
// region API".
func (s Service) What() string { return "the base URL of the Unikorn " + s.Name() + " API" }

// MarkdownDescription describes the attribute in the provider's schema.
func (s Service) MarkdownDescription() string {
	words := []string{
		"Base URL of the Unikorn " + s.Name() + " API, e.g. `https://" + s.Name() + ".example.com`.",
		"Defaults to the `" + s.EnvVar() + "` environment variable.",
	}

	if use := declared[s].use; use != "" {
		words = append(words, use)
	}

	return strings.Join(words, " ")
}

// ByService holds one value per service, indexed by Service. It is an array, so
// that a copy is a copy: settings copied and changed for a second provider block
// leave the first as it was.
type ByService[T any] [Count]T

// Endpoints are the services' base URLs; "" where one is not configured.
type Endpoints = ByService[string]

// InSandbox returns where a sandbox listening at base serves every service.
func InSandbox(base string) Endpoints {
	var endpoints Endpoints
	for _, s := range All() {
		endpoints[s] = base + s.SandboxPrefix()
	}

	return endpoints
}
