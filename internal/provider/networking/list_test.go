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

	// The other project holds nothing else, so the query finds only what this makes.
	project := acctest.Quote(sandbox.OtherProjectID)
	made := fmt.Sprintf(`
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
`, project, acctest.Quote(env.RegionID), acctest.Quote(acctest.NewAuthorityKey(t)+" ops@example.com"))

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

	query := env.QueryWhatOthersMade(t, made, queries)

	assert.Contains(t, query.Output, "found (")
	assert.Regexp(t, `resource "unikorn_network"`, query.Generated)
	assert.Regexp(t, `resource "unikorn_security_group"`, query.Generated)
	assert.Regexp(t, `resource "unikorn_ssh_certificate_authority"`, query.Generated)

	// Beside the three made here, the project holds the sandbox's own network and
	// authority, which the query finds too.
	assert.Contains(t, query.Plan, "Plan: 5 to import, 0 to add, 0 to change, 0 to destroy.")
	assert.Contains(t, query.Plan, `description     = "found by a query"`)

	query.ImportLeavesNothingToDo(t)
}
