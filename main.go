// Command terraform-provider-unikorn is the Terraform provider for Unikorn Cloud
// compute. Terraform starts it as a plugin; with -debug it runs on its own so that a
// debugger can attach and Terraform connects through TF_REATTACH_PROVIDERS.
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/memlimit"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
)

// version is set by the release build (-ldflags "-X main.version=1.2.3"); it reaches
// the User-Agent of every API request.
var version = "dev"

// defaultMemoryLimit is the floor of the Go runtime's soft memory limit when GOMEMLIMIT
// sets none: the limit follows the live heap from above (internal/memlimit), so that a
// walk of a few hundred instances stays compact without a larger configuration
// starving for collections; GOMEMLIMIT overrides it (see BENCHMARKS.md).
const defaultMemoryLimit = 40 << 20

// logSettings are the variables by which a user asks Terraform (or OpenTofu) for
// provider logs, or asks the plugin SDK for its own; Terraform starts the provider with
// its own environment, so the provider sees them too.
var logSettings = []string{
	"TF_LOG", "TF_LOG_PROVIDER", "TF_LOG_PROVIDER_UNIKORN",
	"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK",
}

// quietUnlessAsked turns the provider's and the plugin SDK's logs off when none of
// logSettings is set. Terraform then drops every line the provider writes, but the
// SDK's loggers default to trace and would still format each RPC's lines as JSON: a
// quarter of the provider's CPU time in a plan of 100 instances (see BENCHMARKS.md).
func quietUnlessAsked() {
	for _, name := range logSettings {
		if os.Getenv(name) != "" {
			return
		}
	}

	// TF_LOG itself, first in the list, is Terraform's; the rest are read in this process.
	for _, name := range logSettings[1:] {
		_ = os.Setenv(name, "off")
	}
}

func main() {
	var debug bool

	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	// Under a debugger the logs go to the developer's terminal, not to Terraform.
	if !debug {
		quietUnlessAsked()
	}

	if os.Getenv("GOMEMLIMIT") == "" {
		// For the life of the process.
		_ = memlimit.Follow(context.Background(), defaultMemoryLimit)
	}

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: provider.Address,
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err)
	}
}
