package provider

import "os"

// LogSettings are the variables by which a user asks Terraform (or OpenTofu) for
// provider logs, or asks the plugin SDK for its own; Terraform starts the provider with
// its own environment, so the provider sees them too.
var LogSettings = []string{
	"TF_LOG", "TF_LOG_PROVIDER", "TF_LOG_PROVIDER_UNIKORN",
	"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK",
}

// QuietUnlessAsked turns the provider's and the plugin SDK's logs off when none of
// LogSettings is set. Terraform then drops every line the provider writes, but the
// SDK's loggers default to trace and would still format each RPC's lines as JSON: a
// quarter of the provider's CPU time in a plan of 100 instances (see BENCHMARKS-HISTORY.md).
// The benchmark's floor provider calls it too, so that what it costs compares.
func QuietUnlessAsked() {
	for _, name := range LogSettings {
		if os.Getenv(name) != "" {
			return
		}
	}

	// TF_LOG itself, first in the list, is Terraform's; the rest are read in this process.
	for _, name := range LogSettings[1:] {
		_ = os.Setenv(name, "off")
	}
}
