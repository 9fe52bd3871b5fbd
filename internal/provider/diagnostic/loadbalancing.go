package diagnostic

import (
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
)

// ListenerPath is where a problem of a load balancer points: the listener's attribute
// field ("port", "health_check.timeout_seconds"), or the listener itself for an empty
// field; without a listener, the load balancer's attribute field, or the listeners.
func ListenerPath(listener, field string) path.Path {
	p := path.Root("listeners")

	switch {
	case listener == "" && field != "":
		return path.Root(field)
	case listener == "":
		return p
	}

	p = p.AtMapKey(listener)

	switch field {
	case "", loadbalancing.FieldName:
		return p
	case loadbalancing.FieldHealthCheck + ".interval_seconds", loadbalancing.FieldHealthCheck + ".timeout_seconds",
		loadbalancing.FieldHealthCheck + ".healthy_threshold", loadbalancing.FieldHealthCheck + ".unhealthy_threshold":
		return p.AtName(loadbalancing.FieldHealthCheck).AtName(field[len(loadbalancing.FieldHealthCheck)+1:])
	}

	return p.AtName(field)
}

// ListenerProblem is a problem of a load balancer's listener, at the listener's
// attribute, naming the listener.
func ListenerProblem(problem loadbalancing.Problem) diag.Diagnostic {
	summary := problem.Summary
	if problem.Listener != "" {
		summary += " in listener " + `"` + problem.Listener + `"`
	}

	return diag.NewAttributeErrorDiagnostic(ListenerPath(problem.Listener, problem.Field), summary, problem.Detail)
}

// LoadBalancing turns an error of the load balancing façade into diagnostics: one per
// problem of the document, at its listener, and for every other failure of load
// balancing's one that says what is left behind and what to do; the failures every
// family shares read as Cloud words them. summary names the operation that failed.
func LoadBalancing(summary string, err error) diag.Diagnostics {
	var (
		problems *loadbalancing.ValidationError
		quota    *loadbalancing.QuotaError
		failed   *loadbalancing.ProvisioningFailedError
		deleting *loadbalancing.DeletingError
		gone     *loadbalancing.GoneError
	)

	switch {
	case errors.As(err, &problems):
		var diags diag.Diagnostics
		for _, problem := range problems.Problems {
			diags.Append(ListenerProblem(problem))
		}

		return diags
	case errors.As(err, &quota) && quota.Updating:
		return diag.Diagnostics{Error(summary, sentence(quota.Error())+" The load balancer is unchanged.",
			"Release quota elsewhere, leave public_ip_enabled as it was, or ask the platform operator to raise the quota.")}
	case errors.As(err, &quota):
		return diag.Diagnostics{Error(summary, sentence(quota.Error())+" Nothing was created.",
			"Delete load balancers (or public IPs) you no longer need, or ask the platform operator to raise the quota.")}
	case errors.As(err, &failed):
		return diag.Diagnostics{Error(summary, sentence(failed.Error()),
			"The load balancer is kept in the state. Check its listeners, members and VIP (another port may hold "+
				"the address), change the configuration and apply again, or report the ID to the platform operator.")}
	case errors.As(err, &deleting):
		return diag.Diagnostics{Error(summary, sentence(deleting.Error()),
			"Wait until it is gone; the next plan then creates it anew.")}
	case errors.As(err, &gone):
		return diag.Diagnostics{Error(summary, sentence(gone.Error()),
			"Run Terraform again: the refresh removes it from the state and the plan creates it anew.")}
	default:
		return Cloud(summary, err)
	}
}

// LoadBalancingNetwork says what a network that could not be read at plan means for
// a load balancer on it: one that does not exist is an error at the attribute that
// names it; one that cannot be read now leaves region to check the VIP at apply.
func LoadBalancingNetwork(p path.Path, networkID string, err error) diag.Diagnostic {
	if cloud.Classify(err).Class == cloud.ClassNotFound {
		return AttributeError(p, "Network not found", "Network "+networkID+" does not exist or is not visible to this token.",
			"Check the ID, and that the network belongs to the organization and project the provider's token may use.")
	}

	return diag.NewAttributeWarningDiagnostic(p, "VIP not checked",
		detail("The network's prefix could not be read to check vip_address against it: "+err.Error()+".",
			"Region checks it when the load balancer is created."))
}

// VIPOutsideNetwork says that a load balancer's VIP is not in its network's prefix;
// err is the façade's reason.
func VIPOutsideNetwork(p path.Path, err error) diag.Diagnostic {
	return AttributeError(p, "VIP outside the network", sentence(err.Error()),
		"Choose an address within the network's prefix, or leave vip_address out to let the network choose one.")
}
