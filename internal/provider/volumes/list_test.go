package volumes_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// Configuration that `terraform query` generates for the volumes of a network imports
// them by identity, and the plan after the import is empty; a volume of another
// network is not found.
func TestAccVolumeQueryGeneratesConfigurationThatImports(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	made := fmt.Sprintf(`
resource "unikorn_volume" "found" {
  name            = "found"
  description     = "found by a query"
  network_id      = %[1]q
  volume_class_id = %[3]q
  size_gib        = 12
  tags            = { team = "data" }
}

resource "unikorn_volume" "elsewhere" {
  name            = "elsewhere"
  network_id      = %[2]q
  volume_class_id = %[3]q
  size_gib        = 1
}
`, sandbox.NetworkDefaultID, sandbox.NetworkSecondaryID, env.VolumeClassID(t))

	query := env.QueryWhatOthersMade(t, made, fmt.Sprintf(`
list "unikorn_volume" "found" {
  provider         = unikorn
  include_resource = true
  config {
    network_id = %q
  }
}
`, sandbox.NetworkDefaultID))

	assert.Contains(t, query.Output, "found (")
	assert.NotContains(t, query.Output, "elsewhere")
	assert.Contains(t, query.Generated, `resource "unikorn_volume"`)
	assert.Contains(t, query.Generated, `size_gib`)
	assert.Contains(t, query.Generated, `found by a query`)
	assert.Contains(t, query.Plan, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.")

	query.ImportLeavesNothingToDo(t)
}
