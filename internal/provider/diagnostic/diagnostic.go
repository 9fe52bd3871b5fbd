// Package diagnostic builds the error diagnostics the provider shows. Each one has a
// summary that says what failed and a detail that says why and what to do about it,
// so that every Terraform type reports the same problem in the same words.
package diagnostic

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// Error is an error diagnostic whose detail is the problem followed by the remedy.
func Error(summary, problem, remedy string) diag.Diagnostic {
	return diag.NewErrorDiagnostic(summary, detail(problem, remedy))
}

// AttributeError is Error attached to the attribute at p, so that Terraform points at
// the offending line of the configuration.
func AttributeError(p path.Path, summary, problem, remedy string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(p, summary, detail(problem, remedy))
}

// APIError turns an error of the Unikorn client into a diagnostic. summary names the
// operation that failed ("Unable to list flavors"); the detail always carries the HTTP
// method, path, status, error code, description and trace ID of an API answer, then
// what to do about that kind of failure.
func APIError(summary string, err error) diag.Diagnostic {
	return Error(summary, err.Error(), remedy(err))
}

func detail(problem, remedy string) string {
	if remedy == "" {
		return problem
	}

	return problem + "\n\n" + remedy
}

// remedy is the advice for a failed API call, chosen by the class of the failure
// (cloud.Classify) rather than by the operation, because the same answer means the
// same thing everywhere. Only a request that got no answer is advised about
// endpoints and TLS, only a refusal whose body says quota about quota.
func remedy(err error) string {
	failure := cloud.Classify(err)

	switch failure.Class {
	case cloud.ClassUnreachable:
		return "The service could not be reached. Check the provider's region_endpoint and " +
			"identity_endpoint, the network between here and the service, and the TLS settings " +
			"(ca_certificate, insecure)."
	case cloud.ClassDropped:
		return "The connection broke before the whole answer arrived; safe requests were already retried. " +
			"Run Terraform again; if it persists, check the proxies between here and the service."
	case cloud.ClassTimeout:
		return "The request did not complete in time. Check that the service is reachable, " +
			"or raise the provider's request_timeout."
	case cloud.ClassUnconfigured:
		return "Set the endpoint the error names in the provider block (" + optionalEndpoints() + ")."
	case cloud.ClassUnauthorized:
		return "The token was not accepted. Check the provider's token (or UNIKORN_TOKEN): it may " +
			"be mistyped, expired or revoked, or issued by another identity service than identity_endpoint."
	case cloud.ClassRBAC:
		return rbacRemedy(failure)
	case cloud.ClassQuota:
		return quotaRemedy(failure)
	case cloud.ClassInUse:
		return "Something still uses the object. Delete or detach what uses it first, then run Terraform again."
	case cloud.ClassNotFound:
		return "The object does not exist or is not visible to this token. Check the ID, and that " +
			"it belongs to the organization and project the provider is configured for."
	case cloud.ClassConflict:
		return "The object already exists or is in use by another one. Import the existing object, " +
			"or remove what still uses it first."
	case cloud.ClassValidation:
		return "The service rejected the values it was sent. Correct the configuration as the " +
			"description says; if the values look right, report the trace ID to the operator."
	case cloud.ClassOverloaded:
		return "The service is overloaded or failing; safe requests were already retried. Try again " +
			"later, and if it persists report the trace ID to the operator."
	default:
		// What the error says is all there is to say: it is no answer of the service's
		// and no failure to reach it.
		return ""
	}
}

// optionalEndpoints names the settings of the endpoints a provider may be given
// without, each with its variable: "identity_endpoint or UNIKORN_IDENTITY_ENDPOINT, …".
func optionalEndpoints() string {
	var names []string

	for _, service := range services.All() {
		if !service.Required() {
			names = append(names, service.Attribute()+" or "+service.EnvVar())
		}
	}

	return strings.Join(names, ", ")
}

// rbacRemedy says which right the token's account lacks, in identity's names when the
// refusal gives them.
func rbacRemedy(failure cloud.Failure) string {
	right := "the right to do this"
	if failure.Operation != "" {
		right = fmt.Sprintf("the right to %s `%s`", failure.Operation, failure.Endpoint)
	}

	where := ""
	if strings.Contains(failure.Why, "accessible set") {
		where = " The organization or project is not among those its groups reach: a project's objects " +
			"need a group that the project names (`unikorn_project.group_ids`)."
	}

	return "The token is valid, but its account lacks " + right + "." + where + " Use a token whose " +
		"account has it, or ask an administrator of the organization to put the account in a group whose " +
		"role grants it."
}

// quotaRemedy names the quota that refused.
func quotaRemedy(failure cloud.Failure) string {
	quota := "the quota"
	if failure.Quota != "" {
		quota = "the `" + failure.Quota + "` quota"
	}

	return "The organization's " + strings.TrimPrefix(quota, "the ") + " would be exceeded. Delete what you no " +
		"longer need, or ask the platform operator to raise " + quota + "."
}
