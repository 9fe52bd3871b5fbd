package identity_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

const membershipGroups = `
data "unikorn_roles" "all" {}

resource "unikorn_group" "base" {
  name     = "base"
  role_ids = [data.unikorn_roles.all.ids["user"]]
}
`

// ciInBase is a service account that names the base group itself.
const ciInBase = `
resource "unikorn_service_account" "ci" {
  name      = "ci"
  group_ids = [unikorn_group.base.id]
}
`

// appliedAdminCLI is adminCLI with config applied, and destroyed when the test ends.
func appliedAdminCLI(t *testing.T, env *acctest.Environment, config string) *acctest.CLI {
	t.Helper()

	cli := adminCLI(t, env, config)
	cli.Run("apply", "-auto-approve", "-input=false")

	t.Cleanup(func() { cli.Run("destroy", "-auto-approve", "-input=false") })

	return cli
}

// A service account that names one group itself, and another group that lists it in
// service_account_ids: each side manages its own membership, and the second plan is
// empty (the account's group_ids used to plan taking it out of the other group on
// every apply, and the group putting it back).
func TestAccMembershipFromBothSidesPlansNothing(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	config := membershipGroups + ciInBase + `
resource "unikorn_group" "deployers" {
  name                = "deployers"
  role_ids            = [data.unikorn_roles.all.ids["user"]]
  service_account_ids = [unikorn_service_account.ci.id]
}

resource "unikorn_service_account" "robot" {
  name = "robot"
}

resource "unikorn_group" "robots" {
  name                = "robots"
  role_ids            = [data.unikorn_roles.all.ids["user"]]
  service_account_ids = [unikorn_service_account.robot.id]
}
`
	cli := appliedAdminCLI(t, env, config)

	assert.Contains(t, cli.Run("plan", "-input=false"), "No changes")
	cli.Run("apply", "-auto-approve", "-input=false")
	assert.Contains(t, cli.Run("plan", "-input=false"), "No changes")

	// The account leaves the group it named, and stays in the one that lists it.
	cli.WriteConfig(adminConfig(env) + membershipGroups + `
resource "unikorn_service_account" "ci" {
  name = "ci"
}

resource "unikorn_group" "deployers" {
  name                = "deployers"
  role_ids            = [data.unikorn_roles.all.ids["user"]]
  service_account_ids = [unikorn_service_account.ci.id]
}
`)
	cli.Run("apply", "-auto-approve", "-input=false")
	assert.Contains(t, cli.Run("plan", "-input=false"), "No changes")
	cli.Run("apply", "-refresh-only", "-auto-approve", "-input=false")
	assert.Contains(t, cli.Run("state", "show", "unikorn_group.deployers"), "service_account_ids")
	assert.NotContains(t, cli.Run("state", "show", "unikorn_group.base"), `service_account_ids = [
        "`, "the account left the group it no longer names")
}

// A group whose service_account_ids leaves out an account that names the group from
// its side: the plan warns that the two undo each other.
func TestAccMembershipClaimedInconsistentlyWarns(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	cli := appliedAdminCLI(t, env, membershipGroups+ciInBase)

	cli.WriteConfig(adminConfig(env) + `
data "unikorn_roles" "all" {}

resource "unikorn_group" "base" {
  name                = "base"
  role_ids            = [data.unikorn_roles.all.ids["user"]]
  service_account_ids = []
}
` + ciInBase)

	plan := cli.Run("plan", "-input=false")
	assert.Contains(t, plan, "Warning: Service accounts will leave the group")
	assert.Regexp(t, acctest.Says("the two resources undo each other"), plan)
}

// Removing a group that a project names, with the project's reference to it, and a
// service account that a group lists, with the group's reference to it: identity
// takes a deleted group out of its projects and a deleted account out of its groups
// itself, so one apply converges, in seconds.
func TestAccIdentityObjectsRemovedWithTheirReferences(t *testing.T) {
	t.Parallel()

	env := acctest.New(t, acctest.Production(t))
	env.SkipUnlessSandbox(t)

	config := func(with bool) string {
		config := membershipGroups + `
resource "unikorn_project" "team" {
  name      = "team"
  group_ids = [unikorn_group.base.id%s]
}

resource "unikorn_group" "members" {
  name                = "members"
  role_ids            = [data.unikorn_roles.all.ids["user"]]
  service_account_ids = [%s]
}
`
		extra, account := "", ""

		if with {
			config += `
resource "unikorn_group" "extra" {
  name     = "extra"
  role_ids = [data.unikorn_roles.all.ids["user"]]
}

resource "unikorn_service_account" "robot" {
  name = "robot"
}
`
			extra, account = ", unikorn_group.extra.id", "unikorn_service_account.robot.id"
		}

		return fmt.Sprintf(config, extra, account)
	}

	cli := appliedAdminCLI(t, env, config(true))

	cli.WriteConfig(adminConfig(env) + config(false))

	began := time.Now()
	cli.Run("apply", "-auto-approve", "-input=false")
	assert.Less(t, time.Since(began), time.Minute)
	assert.Contains(t, cli.Run("plan", "-input=false"), "No changes")
}
