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

// reapply gives cli the administrator's provider block and config, and applies them.
func reapply(t *testing.T, env *acctest.Environment, cli *acctest.CLI, config string) {
	t.Helper()

	cli.WriteConfig(adminConfig(env) + config)
	cli.Run("apply", "-auto-approve", "-input=false")
}

// plansNothing checks that cli's next plan has nothing to do.
func plansNothing(t *testing.T, cli *acctest.CLI) {
	t.Helper()

	assert.Contains(t, cli.Run("plan", "-input=false"), "No changes")
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

	plansNothing(t, cli)
	cli.Run("apply", "-auto-approve", "-input=false")
	plansNothing(t, cli)

	// The account leaves the group it named, and stays in the one that lists it.
	reapply(t, env, cli, membershipGroups+`
resource "unikorn_service_account" "ci" {
  name = "ci"
}

resource "unikorn_group" "deployers" {
  name                = "deployers"
  role_ids            = [data.unikorn_roles.all.ids["user"]]
  service_account_ids = [unikorn_service_account.ci.id]
}
`)
	plansNothing(t, cli)
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

	began := time.Now()
	reapply(t, env, cli, config(false))
	assert.Less(t, time.Since(began), time.Minute)
	plansNothing(t, cli)
}

// aliceInBase is a user that names the base group itself.
const aliceInBase = `
resource "unikorn_user" "alice" {
  subject   = "alice@example.com"
  group_ids = [unikorn_group.base.id]
%s}
`

// groupsOfAlice are the groups identity has the user alice@example.com in.
func groupsOfAlice(t *testing.T, env *acctest.Environment) []string {
	t.Helper()

	for _, user := range usersOf(t, env) {
		if user.Spec.Subject == "alice@example.com" {
			return user.Spec.GroupIDs
		}
	}

	return nil
}

// A user that names one group itself, and another group that lists the user in
// user_ids: each side manages its own membership, and the second plan is empty.
// Identity's update of a user rewrites every group of the organization, so an update
// of the user (its state here) keeps it in the group that lists it only because the
// provider sends that group too.
func TestAccUserMembershipFromBothSidesPlansNothing(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	listing := `
resource "unikorn_group" "listing" {
  name     = "listing"
  role_ids = [data.unikorn_roles.all.ids["user"]]
  user_ids = [unikorn_user.alice.id]
}
`
	cli := appliedAdminCLI(t, env, membershipGroups+fmt.Sprintf(aliceInBase, "")+listing)

	plansNothing(t, cli)
	assert.Len(t, groupsOfAlice(t, env), 2)

	// An update of the user leaves it in the group that lists it.
	reapply(t, env, cli, membershipGroups+fmt.Sprintf(aliceInBase, `  state = "suspended"`+"\n")+listing)
	assert.Len(t, groupsOfAlice(t, env), 2, "the user stays in the group that lists it")
	plansNothing(t, cli)

	// An update of a group whose user_ids is unset leaves in it the user that names it.
	described := `
data "unikorn_roles" "all" {}

resource "unikorn_group" "base" {
  name        = "base"
  description = "joined from the users' side"
  role_ids    = [data.unikorn_roles.all.ids["user"]]
}
`
	reapply(t, env, cli, described+fmt.Sprintf(aliceInBase, `  state = "suspended"`+"\n")+listing)
	assert.Len(t, groupsOfAlice(t, env), 2, "the user stays in the group it names")
	plansNothing(t, cli)

	// The user leaves the group it named, and stays in the one that lists it.
	reapply(t, env, cli, described+`
resource "unikorn_user" "alice" {
  subject = "alice@example.com"
  state   = "suspended"
}
`+listing)
	assert.Len(t, groupsOfAlice(t, env), 1)
	plansNothing(t, cli)
}

// A group whose user_ids leaves out a user that names the group from its side: the
// plan warns that the two undo each other.
func TestAccUserMembershipClaimedInconsistentlyWarns(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	bob := `
resource "unikorn_user" "bob" {
  subject = "bob@example.com"
}
`
	cli := appliedAdminCLI(t, env, membershipGroups+fmt.Sprintf(aliceInBase, "")+bob)

	cli.WriteConfig(adminConfig(env) + `
data "unikorn_roles" "all" {}

resource "unikorn_group" "base" {
  name     = "base"
  role_ids = [data.unikorn_roles.all.ids["user"]]
  user_ids = [unikorn_user.bob.id]
}
` + fmt.Sprintf(aliceInBase, "") + bob)

	plan := cli.Run("plan", "-input=false")
	assert.Contains(t, plan, "Warning: Users will leave the group")
	assert.Regexp(t, acctest.Says("unikorn_user names this group", "the two resources undo each other"), plan)
}
