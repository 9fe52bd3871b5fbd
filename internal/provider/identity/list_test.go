package identity_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// Configuration that `terraform query` generates for projects, groups and service
// accounts imports them, and the plan after the import is empty.
func TestAccQueryGeneratesIdentityConfigurationThatImports(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)
	acctest.SkipUnlessSupported(t, acctest.ListResources)

	admin := env.Settings
	admin.Token = sandbox.AdminToken
	admin.OrganizationID = sandbox.EmptyOrganizationID
	admin.ProjectID = ""
	env.Settings = admin

	creator := env.CLI(t, `
data "unikorn_roles" "all" {}

resource "unikorn_group" "found" {
  name     = "found"
  role_ids = [data.unikorn_roles.all.ids["user"]]
}

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
`)
	creator.Run("apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { creator.Run("destroy", "-auto-approve", "-input=false") })

	importer := env.CLI(t, "")

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

	importer.WriteFile("find.tfquery.hcl", queries)
	found := importer.Run("query", "-generate-config-out=generated.tf")
	generated := importer.ReadFile("generated.tf")

	assert.Contains(t, found, "found (")
	assert.Contains(t, generated, "identity = {")
	assert.Regexp(t, `resource "unikorn_project"`, generated)
	assert.Regexp(t, `resource "unikorn_group"`, generated)
	assert.Regexp(t, `resource "unikorn_service_account"`, generated)
	assert.NotContains(t, generated, "administrators", "the name filter leaves the organization's own group out")

	plan := importer.Run("plan", "-input=false")
	assert.Contains(t, plan, "Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.")
	assert.Contains(t, plan, `description     = "found by a query"`)

	importer.Run("apply", "-auto-approve", "-input=false")
	// The importer now manages them; it destroys them before the creator, which then
	// finds them gone.
	t.Cleanup(func() { importer.Run("destroy", "-auto-approve", "-input=false") })

	assert.Contains(t, importer.Run("plan", "-input=false", "-detailed-exitcode"), "No changes.")
}

// Configuration that `terraform query` generates for a user, found by its subject,
// imports it with the groups it is in, and the plan after the import is empty.
func TestAccQueryGeneratesUserConfigurationThatImports(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)
	acctest.SkipUnlessSupported(t, acctest.ListResources)

	creator := adminCLI(t, env, `
data "unikorn_roles" "all" {}

resource "unikorn_group" "found" {
  name     = "found"
  role_ids = [data.unikorn_roles.all.ids["user"]]
}

resource "unikorn_user" "found" {
  subject   = "found@example.com"
  group_ids = [unikorn_group.found.id]
}

resource "unikorn_user" "other" {
  subject = "other@example.com"
}
`)
	creator.Run("apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { creator.Run("destroy", "-auto-approve", "-input=false") })

	importer := adminCLI(t, env, "")
	importer.WriteFile("find.tfquery.hcl", `
list "unikorn_user" "found" {
  provider         = unikorn
  include_resource = true
  config {
    subject = "found@example.com"
  }
}
`)
	found := importer.Run("query", "-generate-config-out=generated.tf")
	generated := importer.ReadFile("generated.tf")

	assert.Contains(t, found, "found@example.com (")
	assert.NotContains(t, found, "other@example.com", "the subject filter leaves the other user out")
	assert.Contains(t, generated, "identity = {")
	assert.Regexp(t, `resource "unikorn_user"`, generated)

	plan := importer.Run("plan", "-input=false")
	assert.Contains(t, plan, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.")

	importer.Run("apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { importer.Run("destroy", "-auto-approve", "-input=false") })

	assert.Contains(t, importer.Run("plan", "-input=false", "-detailed-exitcode"), "No changes.")
}
