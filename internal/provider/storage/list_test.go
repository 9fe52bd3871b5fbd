package storage_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// Configuration that `terraform query` generates for file storage imports it, and the
// plan after the import is empty.
func TestAccFileStorageQueryGeneratesConfigurationThatImports(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)
	acctest.SkipUnlessSupported(t, acctest.ListResources)

	// The other project holds no other storage, so the query finds only what this makes.
	project := acctest.Quote(sandbox.OtherProjectID)
	creator := env.CLI(t, fmt.Sprintf(`
resource "unikorn_file_storage" "found" {
  name             = "found"
  description      = "found by a query"
  project_id       = %[1]s
  region_id        = %[2]s
  storage_class_id = %[3]s
  size_gib         = 3
  root_squash      = false
  attachments      = [%[4]s]

  snapshot_policies = {
    weekly = { interval = "weekly", time_of_day = "05:00Z", day_of_week = "friday", keep = 2 }
  }
}
`, project, acctest.Quote(env.RegionID), acctest.Quote(env.StorageClassID(t)), acctest.Quote(sandbox.NetworkOtherID)))
	creator.Run("apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { creator.Run("destroy", "-auto-approve", "-input=false") })

	importer := env.CLI(t, "")
	importer.WriteFile("find.tfquery.hcl", fmt.Sprintf(`
list "unikorn_file_storage" "found" {
  provider         = unikorn
  include_resource = true
  config {
    project_id = %s
  }
}
`, project))

	found := importer.Run("query", "-generate-config-out=generated.tf")
	generated := importer.ReadFile("generated.tf")

	assert.Contains(t, found, "found (")
	assert.Contains(t, generated, "identity = {")
	assert.Contains(t, generated, `resource "unikorn_file_storage"`)
	assert.Contains(t, generated, `root_squash`)

	plan := importer.Run("plan", "-input=false")
	assert.Contains(t, plan, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.")

	importer.Run("apply", "-auto-approve", "-input=false")
	// The importer now manages it; it destroys it before the creator, which then finds
	// it gone.
	t.Cleanup(func() { importer.Run("destroy", "-auto-approve", "-input=false") })

	assert.Contains(t, importer.Run("plan", "-input=false", "-detailed-exitcode"), "No changes.")
}

// A create whose answer is lost after region made the storage is resolved by finding
// it, never by sending the create again: one storage, one quota charge.
func TestAccFileStorage_lostCreateIsAdopted(t *testing.T) {
	env := acctest.New(t, acctest.Production(t))
	env.SkipUnlessSandbox(t)

	env.AddFault(t, sandbox.FaultRule{Method: http.MethodPost, Route: "/api/v2/filestorage", Status: http.StatusBadGateway, Count: 1, Phase: sandbox.FaultPhaseAfter})

	c := newConfig(t, env)
	c.Attachments = []string{acctest.Quote(sandbox.NetworkDefaultID)}

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { env.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		TerraformVersionChecks:   acctest.TerraformVersionChecks(),
		Steps: []resource.TestStep{{
			Config: c.String(),
			Check: func(s *terraform.State) error {
				all := env.FileStorage(t)
				require.Len(t, all, 1, "one storage")
				assert.Equal(t, all[0].Metadata.ID, s.RootModule().Resources[storageAddress].Primary.ID, "the one adopted")
				stats := env.Stats(t)
				assert.Equal(t, 1, stats.Routes["POST /api/v2/filestorage"], "the create was sent once")
				assert.GreaterOrEqual(t, stats.Routes["GET /api/v2/filestorage"], 2, "and looked for after its answer was lost")
				assert.Equal(t, 10<<30, chargedBytes(t, env, all[0].Metadata.ID))

				return nil
			},
		}},
	})

	assert.Empty(t, env.FileStorage(t), "destroy leaves nothing")
}
