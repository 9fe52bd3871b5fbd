// Command unikorn-bench-floor is the benchmark's floor provider (see
// internal/bench/floor): `make bench` builds it beside the real provider and has
// Terraform start it in its place, to walk the same configuration with nothing
// behind the provider's resource schemas. It runs as the real provider runs: logs off unless
// asked for, the same memory limit.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/bench/floor"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/memlimit"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
)

func main() {
	provider.QuietUnlessAsked()
	memlimit.FollowUnlessSet()

	pacing, err := floor.PacingFromEnvironment()
	if err != nil {
		log.Fatal(err)
	}

	if err := providerserver.Serve(context.Background(), floor.New("bench", pacing), providerserver.ServeOpts{Address: provider.Address}); err != nil {
		log.Fatal(err)
	}
}
