package networking_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// Configuration that `terraform query` generates for networks, security groups and
// SSH certificate authorities imports them, and the plan after the import is empty.
func TestAccQueryGeneratesConfigurationThatImports(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)
	acctest.SkipUnlessSupported(t, acctest.ListResources)

	// The other project holds nothing else, so the query finds only what this makes.
	project := acctest.Quote(sandbox.OtherProjectID)
	creator := env.CLI(t, fmt.Sprintf(`
resource "unikorn_network" "found" {
  name            = "found"
  project_id      = %[1]s
  region_id       = %[2]s
  prefix          = "10.70.0.0/24"
  dns_nameservers = ["192.0.2.53"]
  tags            = { run = "query" }
}

resource "unikorn_security_group" "found" {
  name       = "found"
  network_id = unikorn_network.found.id
  rules      = [{ direction = "ingress", protocol = "tcp", port = 22, prefix = "192.0.2.0/24" }]
}

resource "unikorn_ssh_certificate_authority" "found" {
  name        = "found"
  description = "found by a query"
  project_id  = %[1]s
  public_key  = %[3]s
}
`, project, acctest.Quote(env.RegionID), acctest.Quote(acctest.NewAuthorityKey(t)+" ops@example.com")))
	creator.Run("apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { creator.Run("destroy", "-auto-approve", "-input=false") })

	importer := env.CLI(t, "")

	var queries string
	for _, kind := range []string{"unikorn_network", "unikorn_security_group", "unikorn_ssh_certificate_authority"} {
		queries += fmt.Sprintf(`
list %q "found" {
  provider         = unikorn
  include_resource = true
  config {
    project_id = %s
  }
}
`, kind, project)
	}

	importer.WriteFile("find.tfquery.hcl", queries)
	found := importer.Run("query", "-generate-config-out=generated.tf")
	generated := importer.ReadFile("generated.tf")

	assert.Contains(t, found, "found (")
	assert.Contains(t, generated, "identity = {")
	assert.Regexp(t, `resource "unikorn_network"`, generated)
	assert.Regexp(t, `resource "unikorn_security_group"`, generated)
	assert.Regexp(t, `resource "unikorn_ssh_certificate_authority"`, generated)

	// Beside the three made here, the project holds the sandbox's own network and
	// authority, which the query finds too.
	plan := importer.Run("plan", "-input=false")
	assert.Contains(t, plan, "Plan: 5 to import, 0 to add, 0 to change, 0 to destroy.")
	assert.Contains(t, plan, `description     = "found by a query"`)

	importer.Run("apply", "-auto-approve", "-input=false")
	// The importer now manages them; it destroys them before the creator, which then
	// finds them gone.
	t.Cleanup(func() { importer.Run("destroy", "-auto-approve", "-input=false") })

	assert.Contains(t, importer.Run("plan", "-input=false", "-detailed-exitcode"), "No changes.")
}
