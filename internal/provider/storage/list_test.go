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

	// The other project holds no other storage, so the query finds only what this makes.
	project := acctest.Quote(sandbox.OtherProjectID)
	made := fmt.Sprintf(`
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
`, project, acctest.Quote(env.RegionID), acctest.Quote(env.StorageClassID(t)), acctest.Quote(sandbox.NetworkOtherID))

	query := env.QueryWhatOthersMade(t, made, fmt.Sprintf(`
list "unikorn_file_storage" "found" {
  provider         = unikorn
  include_resource = true
  config {
    project_id = %s
  }
}
`, project))

	assert.Contains(t, query.Output, "found (")
	assert.Contains(t, query.Generated, `resource "unikorn_file_storage"`)
	assert.Contains(t, query.Generated, `root_squash`)
	assert.Contains(t, query.Plan, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.")

	query.ImportLeavesNothingToDo(t)
}

// A create whose answer is lost after region made the storage is resolved by finding
// it, never by sending the create again: one storage, one quota charge.
func TestAccFileStorage_lostCreateIsAdopted(t *testing.T) {
	env := acctest.New(t, acctest.Production(t))
	env.SkipUnlessSandbox(t)

	env.AddFault(t, sandbox.FaultRule{Method: http.MethodPost, Route: "/api/v2/filestorage", Status: http.StatusBadGateway, Count: 1, Phase: sandbox.FaultPhaseAfter})

	c := newConfig(t, env)
	c.Attachments = []string{acctest.Quote(sandbox.NetworkDefaultID)}

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: c.String(),
		Check: func(s *terraform.State) error {
			all := env.FileStorage(t)
			require.Len(t, all, 1, "one storage")
			assert.Equal(t, all[0].Metadata.ID, storageID(s), "the one adopted")
			stats := env.Stats(t)
			assert.Equal(t, 1, stats.Routes["POST /api/v2/filestorage"], "the create was sent once")
			assert.GreaterOrEqual(t, stats.Routes["GET /api/v2/filestorage"], 2, "and looked for after its answer was lost")
			assert.Equal(t, 10<<30, chargedBytes(t, env, all[0].Metadata.ID))

			return nil
		},
	}))

	assert.Empty(t, env.FileStorage(t), "destroy leaves nothing")
}
