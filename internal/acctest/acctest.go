// Package acctest is the acceptance-test harness: it serves the provider in-process to
// the real Terraform CLI and points it at a fresh in-process sandbox per test, or at a
// real Unikorn when UNIKORN_REGION_ENDPOINT and friends are set.
//
// A test reads:
//
//	env := acctest.New(t)
//	resource.ParallelTest(t, resource.TestCase{
//		PreCheck:                 func() { env.PreCheck(t) },
//		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
//		TerraformVersionChecks:   acctest.TerraformVersionChecks(),
//		Steps: []resource.TestStep{{Config: env.ProviderConfig() + `…`}},
//	})
package acctest

import (
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
)

// ProviderVersion is the version the provider reports under test (and so in its
// User-Agent).
const ProviderVersion = "test"

// ProtoV6ProviderFactories serves the provider under its local name to every
// Terraform command of a test. Each call starts a new provider server with its own
// configured client, and the provider itself holds no state, so parallel tests never
// share configuration.
var ProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	provider.TypeName: providerserver.NewProtocol6WithError(provider.New(ProviderVersion)()),
}

// ProtoV6ProviderFactoriesWithEcho adds the echo provider, whose only resource copies
// its `data` into state: the way to assert on ephemeral values, which never reach
// state otherwise.
var ProtoV6ProviderFactoriesWithEcho = map[string]func() (tfprotov6.ProviderServer, error){
	provider.TypeName: providerserver.NewProtocol6WithError(provider.New(ProviderVersion)()),
	"echo":            echoprovider.NewProviderServer(),
}
