package diagnostic

import (
	"errors"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/kubernetes"
)

// Kubernetes turns an error of the Kubernetes façade into diagnostics that say what
// is left behind and what to do; the failures every family shares (waits, API
// answers) read as Cloud words them.
func Kubernetes(summary string, err error) diag.Diagnostics {
	var (
		quota          *kubernetes.QuotaError
		failed         *kubernetes.ProvisioningError
		gone           *kubernetes.GoneError
		notProvisioned *kubernetes.NotProvisionedError
		lookup         *cloud.LookupError
	)

	switch {
	case errors.As(err, &quota):
		left := " Nothing was created."
		if quota.ID != "" {
			left = " The cluster is unchanged: the service charges the quota before it changes anything."
		}

		return diag.Diagnostics{Error(summary, sentence(quota.Error())+left, kubernetesQuotaRemedy(quota.Kind))}
	case errors.As(err, &failed):
		return diag.Diagnostics{Error(summary, sentence(failed.Error()),
			"The cluster is kept in the state (tainted if it was being created: the next apply replaces it). The "+
				"service may yet recover it; if it stays in error, report the cluster ID to the platform operator.")}
	case errors.As(err, &gone):
		return diag.Diagnostics{Error(summary, sentence(gone.Error()),
			"Something deleted the cluster while Terraform waited for it. Run Terraform again: the plan makes it anew.")}
	case errors.As(err, &notProvisioned):
		return diag.Diagnostics{Error(summary, sentence(err.Error()),
			"Read the kubeconfig once the cluster is provisioned: in the same configuration, let the reader depend on "+
				"the `unikorn_kubernetes_cluster` resource, which waits for it.")}
	case errors.As(err, &lookup):
		return diag.Diagnostics{Lookup(lookup.Kind, nil, err)}
	default:
		return Cloud(summary, err)
	}
}

// kubernetesQuotaRemedy says what frees the quota kind a cluster ran out of.
func kubernetesQuotaRemedy(kind string) string {
	quota := "its quota"
	if kind != "" {
		quota = "its `" + kind + "` quota"
	}

	var free string

	switch kind {
	case kubernetes.QuotaClusters:
		free = "Delete clusters you no longer need"
	case kubernetes.QuotaServers:
		free = "Make the workload pools smaller (an autoscaled pool is charged its `replicas`, its most), or delete " +
			"clusters or instances you no longer need"
	case kubernetes.QuotaGPUs:
		free = "Use fewer GPU machines in the workload pools, or delete clusters or instances that use GPUs"
	default:
		free = "Delete what you no longer need"
	}

	return free + ", or ask the platform operator to raise the organization's " + strings.TrimPrefix(quota, "its ") + "."
}
