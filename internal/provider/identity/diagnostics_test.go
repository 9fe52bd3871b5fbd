package identity_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// TestAccServiceAccountInNoGroupSaysOnlyThat gives a service account a group ID that
// names no group: identity ignores it, which is said, and nothing is said of
// endpoints or TLS, since every request was answered.
func TestAccServiceAccountInNoGroupSaysOnlyThat(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	cli := adminCLI(t, env, `
resource "unikorn_service_account" "ci" {
  name      = "ci"
  group_ids = ["f0000000-0000-4000-8000-00000000dead"]
}
`)

	output, err := cli.Try("apply", "-input=false", "-auto-approve")
	require.Error(t, err, output)
	assert.Regexp(t, acctest.Says("Error: Unable to create the service account", `with unikorn_service_account.ci`, "group_ids",
		"in the groups f0000000-0000-4000-8000-00000000dead: it ignores IDs that name no group of the organization",
		"Set group_ids to groups of the organization"), output)
	assert.NotContains(t, acctest.Unwrapped(output), "could not be reached")
	assert.NotContains(t, acctest.Unwrapped(output), "TLS")
	assert.NotContains(t, acctest.Unwrapped(output), "region_endpoint")

	cli.Run("destroy", "-input=false", "-auto-approve")
}

// TestAccOrdinaryUserRefusedIdentityObjectsIsNotToldOfQuota creates a group and a
// service account as the fixture project user, whom identity's RBAC refuses both:
// the diagnostic names the right, and says nothing of quota.
func TestAccOrdinaryUserRefusedIdentityObjectsIsNotToldOfQuota(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	for kind, body := range map[string]string{
		"group": `
resource "unikorn_group" "team" {
  name     = "team"
  role_ids = [` + acctest.Quote(sandbox.UserRoleID) + `]
}
`,
		"service account": `
resource "unikorn_service_account" "ci" {
  name      = "ci"
  group_ids = [` + acctest.Quote(sandbox.AdministratorsGroupID) + `]
}
`,
	} {
		t.Run(kind, func(t *testing.T) {
			// The project user: the environment's own token, a platform
			// administrator's, may make both.
			cli := acctest.NewCLI(t, t.TempDir())
			cli.WriteConfig(env.ProjectUserSettings().Config() + body)
			cli.Run("init", "-input=false")

			endpoint := "identity:groups"
			if kind == "service account" {
				endpoint = "identity:serviceaccounts"
			}

			output, err := cli.Try("apply", "-input=false", "-auto-approve")
			require.Error(t, err, output)
			assert.Regexp(t, acctest.Says("Unable to create the "+kind, "403 forbidden",
				"lacks the right to", "`"+endpoint+"`", "put the account in a group whose role grants it"), output)
			assert.NotContains(t, acctest.Unwrapped(output), "quota")
		})
	}
}

// TestAccImportedServiceAccountTokenSaysWhatIsMissing imports a service account into
// a configuration whose provider has a token_seal_key: its state has no sealed token
// (identity shows a token only to the create or rotation that issued it), and the
// ephemeral token says so, and that a rotation issues one sealed with the key, not
// that the provider lacks a key.
func TestAccImportedServiceAccountTokenSaysWhatIsMissing(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	_, encodedKey := newSealKey(t)

	cli := acctest.NewProcessCLI(t, t.TempDir())
	cli.Setenv("TF_VAR_token_seal_key", encodedKey)
	cli.WriteConfig(team{sealed: true, body: teamNetwork(env)}.config(t, env))
	cli.Run("apply", "-input=false", "-auto-approve")

	id := attribute(t, stateResource(t, cli.ReadFile("terraform.tfstate"), "unikorn_service_account.pipeline"), "id")
	cli.Run("state", "rm", "unikorn_service_account.pipeline")

	cli.WriteConfig(team{sealed: true, body: teamNetwork(env) + `
import {
  to = unikorn_service_account.pipeline
  id = ` + acctest.Quote(sandbox.EmptyOrganizationID+"/"+id) + `
}
`}.config(t, env))

	output, err := cli.Try("plan", "-input=false")
	require.Error(t, err, output)
	assert.Regexp(t, acctest.Says("No sealed token of the service account", "sealed_token` is null when it was imported",
		"Change `rotation_trigger` on the account to issue a new token", "sealed with this provider's `token_seal_key`"), output)
	assert.NotContains(t, acctest.Unwrapped(output), "Give the provider block a `token_seal_key`")

	// The rotation the diagnostic advises recovers.
	cli.WriteConfig(team{sealed: true, trigger: "1", body: teamNetwork(env)}.config(t, env))
	cli.Run("apply", "-input=false", "-auto-approve")
	cli.Run("destroy", "-input=false", "-auto-approve")
}

// TestAccRolesAreFoundByNameAndCheckedAtPlan looks a role up by a name that no role
// has, which fails listing the roles there are (an index into unikorn_roles' map could
// only say "Invalid index"), and gives a group a role ID that names no role, which the
// plan refuses at role_ids, listing the roles, before anything is applied.
func TestAccRolesAreFoundByNameAndCheckedAtPlan(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	cli := adminCLI(t, env, `
data "unikorn_role" "user" {
  name = "usr"
}
`)

	output, err := cli.Try("plan", "-input=false")
	require.Error(t, err, output)
	assert.Regexp(t, acctest.Says("Error: Role not found", `No role is named "usr" in organization `+sandbox.EmptyOrganizationID+`.`,
		`There are: "administrator", "auditor", "reader", "user".`), output)

	missing := "f0000000-0000-4000-8000-00000000beef"
	cli.WriteConfig(adminConfig(env) + `
data "unikorn_role" "user" {
  name = "user"
}

resource "unikorn_group" "team" {
  name     = "team"
  role_ids = [data.unikorn_role.user.id, ` + acctest.Quote(missing) + `]
}
`)

	output, err = cli.Try("plan", "-input=false")
	require.Error(t, err, output)
	assert.Regexp(t, acctest.Says("Error: Role not found", "with unikorn_group.team", "role_ids",
		"Role ID "+missing+" names no role of organization "+sandbox.EmptyOrganizationID, "The roles there are:",
		"user ("+sandbox.UserRoleID+")", "`unikorn_role` data source"), output)

	cli.WriteConfig(adminConfig(env) + `
data "unikorn_role" "user" {
  name = "user"
}

resource "unikorn_group" "team" {
  name     = "team"
  role_ids = [data.unikorn_role.user.id]
}
`)
	cli.Run("apply", "-input=false", "-auto-approve")
	cli.Run("destroy", "-input=false", "-auto-approve")
}
