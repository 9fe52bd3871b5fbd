// Package diagnostic builds the error diagnostics the provider shows. Each one has a
// summary that says what failed and a detail that says why and what to do about it,
// so that every Terraform type reports the same problem in the same words.
package diagnostic

import (
	"context"
	"errors"
	"net/http" //nolint:depguard // status names only: no request is made here

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
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

// remedy is the advice for a failed API call, chosen by the kind of failure rather
// than by the operation, because the same status means the same thing everywhere.
func remedy(err error) string {
	status := compute.StatusCode(err)
	if status == 0 {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return "The request did not complete in time. Check that the service is reachable, " +
				"or raise the provider's request_timeout."
		}

		return "The service could not be reached. Check the provider's region_endpoint and " +
			"identity_endpoint, the network between here and the service, and the TLS settings " +
			"(ca_certificate, insecure)."
	}

	switch {
	case status == http.StatusUnauthorized:
		return "The token was not accepted. Check the provider's token (or UNIKORN_TOKEN): it may " +
			"be mistyped, expired or revoked, or issued by another identity service than identity_endpoint."
	case status == http.StatusForbidden:
		return "The token is valid but not allowed to do this. Check that its account is a member " +
			"of the organization and project with a role that permits the operation, and that the " +
			"organization has quota left."
	case status == http.StatusNotFound:
		return "The object does not exist or is not visible to this token. Check the ID, and that " +
			"it belongs to the organization and project the provider is configured for."
	case status == http.StatusConflict:
		return "The object already exists or is in use by another one. Import the existing object, " +
			"or remove what still uses it first."
	case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		return "The service rejected the values it was sent. Correct the configuration as the " +
			"description says; if the values look right, report the trace ID to the operator."
	case status == http.StatusTooManyRequests || status >= http.StatusInternalServerError:
		return "The service is overloaded or failing; safe requests were already retried. Try again " +
			"later, and if it persists report the trace ID to the operator."
	default:
		return ""
	}
}
