// Command terraform-provider-unikorn is the Terraform provider for Unikorn Cloud
// compute. Terraform starts it as a plugin; with -debug it runs on its own so that a
// debugger can attach and Terraform connects through TF_REATTACH_PROVIDERS.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/memlimit"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
)

// version is set by the release build (-ldflags "-X main.version=1.2.3"); it reaches
// the User-Agent of every API request.
var version = "dev"

func main() {
	var debug bool

	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	// Under a debugger the logs go to the developer's terminal, not to Terraform.
	if !debug {
		provider.QuietUnlessAsked()
	}

	memlimit.FollowUnlessSet()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: provider.Address,
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err)
	}
}
