package importing_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// missingID names no object of any kind.
const missingID = "f0000000-0000-4000-8000-00000000dead"

// importable is every importable type, one resource each: region's objects under the
// environment's provider, identity's under the empty organization's administrator.
// identity is the identity an import block gives for it.
var importable = []struct{ address, identity string }{
	{"unikorn_network.missing", `{ id = %[1]q }`},
	{"unikorn_security_group.missing", `{ id = %[1]q }`},
	{"unikorn_ssh_certificate_authority.missing", `{ id = %[1]q }`},
	{"unikorn_load_balancer.missing", `{ id = %[1]q }`},
	{"unikorn_file_storage.missing", `{ id = %[1]q }`},
	{"unikorn_compute_instance.missing", `{ id = %[1]q }`},
	{"unikorn_snapshot.missing", `{ id = %[1]q }`},
	{"unikorn_group.missing", `{ organization_id = %[2]q, id = %[1]q }`},
	{"unikorn_project.missing", `{ organization_id = %[2]q, id = %[1]q }`},
	{"unikorn_service_account.missing", `{ organization_id = %[2]q, id = %[1]q }`},
}

// Each stands alone: Terraform does not import into a resource whose dependencies
// failed to import.
func resources(env *acctest.Environment, authorityKey string) string {
	return env.ProviderConfigWithAdmin() + fmt.Sprintf(`
resource "unikorn_network" "missing" {
  name      = "missing"
  region_id = %[1]s
  prefix    = "10.72.0.0/24"
}

resource "unikorn_security_group" "missing" {
  name       = "missing"
  network_id = %[2]s
  rules      = []
}

resource "unikorn_ssh_certificate_authority" "missing" {
  name       = "missing"
  public_key = %[6]s
}

resource "unikorn_load_balancer" "missing" {
  name       = "missing"
  network_id = %[2]s
  listeners = {
    web = { protocol = "tcp", port = 443 }
  }
}

resource "unikorn_file_storage" "missing" {
  name             = "missing"
  region_id        = %[1]s
  storage_class_id = %[3]s
  size_gib         = 3
}

resource "unikorn_compute_instance" "missing" {
  name       = "missing"
  network_id = %[2]s
  flavor_id  = %[4]s
  image_id   = %[5]s
}

resource "unikorn_snapshot" "missing" {
  instance_id = %[7]q
  name        = "missing"
}

resource "unikorn_group" "missing" {
  provider = unikorn.admin
  name     = "missing"
  role_ids = []
}

resource "unikorn_project" "missing" {
  provider = unikorn.admin
  name     = "missing"
}

resource "unikorn_service_account" "missing" {
  provider  = unikorn.admin
  name      = "missing"
  group_ids = []
}
`, acctest.Quote(env.RegionID), acctest.Quote(env.NetworkID), acctest.Quote(sandbox.StorageClassStandardID),
		acctest.Quote(env.FlavorID), acctest.Quote(env.ImageID), acctest.Quote(authorityKey), missingID)
}

// TestAccImportOfAMissingIDSaysItDoesNotExist imports an ID that names nothing into
// every importable type, in the three ways Terraform imports: `terraform import`, an
// import block with `id`, and one with `identity`. Each gets Terraform's own
// "Cannot import non-existent remote object", never an error of the provider's.
func TestAccImportOfAMissingIDSaysItDoesNotExist(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	// Two blocks of the provider: each must be a process of its own, as for users.
	cli := acctest.NewProcessCLI(t, t.TempDir())
	config := resources(env, acctest.NewAuthorityKey(t))
	cli.WriteConfig(config)

	expectMissing := func(t *testing.T, output string, err error, count int) {
		t.Helper()

		require.Error(t, err, output)
		assert.Equal(t, count, strings.Count(output, "Cannot import non-existent remote object"), output)
		assert.NotContains(t, output, "Missing Resource Identity")
		assert.NotContains(t, output, "should be reported")
	}

	t.Run("terraform import", func(t *testing.T) {
		for _, object := range importable {
			output, err := cli.Try("import", "-input=false", object.address, missingID)
			expectMissing(t, output, err, 1)
		}
	})

	importBlocks := func(attribute func(identity string) string) string {
		var blocks strings.Builder

		for _, object := range importable {
			fmt.Fprintf(&blocks, "\nimport {\n  to = %s\n  %s\n}\n", object.address, attribute(object.identity))
		}

		return blocks.String()
	}

	t.Run("import block with id", func(t *testing.T) {
		cli.WriteConfig(config + importBlocks(func(string) string { return fmt.Sprintf("id = %q", missingID) }))
		output, err := cli.Try("plan", "-input=false")
		expectMissing(t, output, err, len(importable))
	})

	t.Run("import block with identity", func(t *testing.T) {
		cli.WriteConfig(config + importBlocks(func(identity string) string {
			return "identity = " + fmt.Sprintf(identity, missingID, sandbox.EmptyOrganizationID)
		}))
		output, err := cli.Try("plan", "-input=false")
		expectMissing(t, output, err, len(importable))
	})
}
