package identity_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// Configuration that `terraform query` generates for projects, groups and service
// accounts imports them, and the plan after the import is empty.
func TestAccQueryGeneratesIdentityConfigurationThatImports(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)
	actAsAdmin(env)

	made := userGroup("found") + `
resource "unikorn_project" "found" {
  name        = "found"
  description = "found by a query"
  tags        = { run = "query" }
  group_ids   = [unikorn_group.found.id]
}

resource "unikorn_service_account" "found" {
  name      = "found"
  group_ids = [unikorn_group.found.id]
}
`

	var queries string
	for _, kind := range []string{"unikorn_project", "unikorn_group", "unikorn_service_account"} {
		queries += fmt.Sprintf(`
list %q "found" {
  provider         = unikorn
  include_resource = true
  config {
    name = "found"
  }
}
`, kind)
	}

	query := env.QueryWhatOthersMade(t, made, queries)

	assert.Contains(t, query.Output, "found (")
	assert.Regexp(t, `resource "unikorn_project"`, query.Generated)
	assert.Regexp(t, `resource "unikorn_group"`, query.Generated)
	assert.Regexp(t, `resource "unikorn_service_account"`, query.Generated)
	assert.NotContains(t, query.Generated, "administrators", "the name filter leaves the organization's own group out")
	assert.Contains(t, query.Plan, "Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.")
	assert.Contains(t, query.Plan, `description     = "found by a query"`)

	query.ImportLeavesNothingToDo(t)
}

// Configuration that `terraform query` generates for a user, found by its subject,
// imports it with the groups it is in, and the plan after the import is empty.
func TestAccQueryGeneratesUserConfigurationThatImports(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)
	actAsAdmin(env)

	made := userGroup("found") + `
resource "unikorn_user" "found" {
  subject   = "found@example.com"
  group_ids = [unikorn_group.found.id]
}

resource "unikorn_user" "other" {
  subject = "other@example.com"
}
`

	query := env.QueryWhatOthersMade(t, made, `
list "unikorn_user" "found" {
  provider         = unikorn
  include_resource = true
  config {
    subject = "found@example.com"
  }
}
`)

	assert.Contains(t, query.Output, "found@example.com (")
	assert.NotContains(t, query.Output, "other@example.com", "the subject filter leaves the other user out")
	assert.Regexp(t, `resource "unikorn_user"`, query.Generated)
	assert.Contains(t, query.Plan, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.")

	query.ImportLeavesNothingToDo(t)
}
