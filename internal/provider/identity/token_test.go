package identity_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/seal"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// tokenWorks reports whether identity accepts token.
func tokenWorks(t *testing.T, env *acctest.Environment, token string) bool {
	t.Helper()

	_, err := env.ClientAs(t, token).ListServiceAccounts(t.Context(), sandbox.EmptyOrganizationID)
	if unikorn.IsUnauthorized(err) {
		return false
	}

	require.NoError(t, err)

	return true
}

// sealedToken opens the service account's sealed token in the CLI's state with key.
func sealedToken(t *testing.T, cli *acctest.CLI, key []byte) seal.Token {
	t.Helper()

	account := stateResource(t, cli.ReadFile("terraform.tfstate"), "unikorn_service_account.pipeline")
	sealed := attribute(t, account, "sealed_token")
	require.NotEmpty(t, sealed)

	token, err := seal.Open(key, attribute(t, account, "id"), sealed)
	require.NoError(t, err)

	return token
}

// TestAccServiceAccountTokenRotatesOnlyWhenAskedAndOpensOnlyWithItsKey configures a
// second provider block from a project and a service account made in the same run:
// a data source under it that Terraform would read at plan fails saying how to wait
// for them, as does an import, and depends_on is that remedy. A wrong seal key fails
// with what to do; changing rotation_trigger plans an in-place update that rotates
// only when applied, and the new token is sealed with the key given then.
func TestAccServiceAccountTokenRotatesOnlyWhenAskedAndOpensOnlyWithItsKey(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	key, encodedKey := newSealKey(t)
	otherKey, encodedOtherKey := newSealKey(t)

	cli := acctest.NewProcessCLI(t, t.TempDir())
	cli.Setenv("TF_VAR_token_seal_key", encodedKey)

	// At plan, the team's provider has no token and no project yet.
	cli.WriteConfig(team{sealed: true, trigger: "1", body: teamNetwork(env) + `
data "unikorn_regions" "team" {
  provider = unikorn.team
}
`}.config(t, env))

	output, err := cli.Try("plan", "-input=false")
	require.Error(t, err)
	assert.Regexp(t, acctest.Says("Provider configuration not known yet", "Unable to list regions",
		"`token` and `project_id` are not known until apply", "depends_on"), output)

	cli.WriteConfig(team{sealed: true, trigger: "1", body: teamNetwork(env) + `
import {
  provider = unikorn.team
  to       = unikorn_network.imported
  id       = ` + acctest.Quote(sandbox.NetworkDefaultID) + `
}

resource "unikorn_network" "imported" {
  provider  = unikorn.team
  name      = "imported"
  region_id = ` + acctest.Quote(env.RegionID) + `
  prefix    = "10.71.0.0/24"
}
`}.config(t, env))

	output, err = cli.Try("plan", "-input=false")
	require.Error(t, err)
	assert.Regexp(t, acctest.Says("Unable to import the network", "apply them first"), output)

	// depends_on lets Terraform read it when the objects are made.
	cli.WriteConfig(team{sealed: true, trigger: "1", body: teamNetwork(env) + `
data "unikorn_regions" "team" {
  provider   = unikorn.team
  depends_on = [unikorn_project.team, unikorn_service_account.pipeline]
}
`}.config(t, env))
	cli.Run("apply", "-input=false", "-auto-approve")

	first := sealedToken(t, cli, key)
	require.True(t, tokenWorks(t, env, first.Token))

	// Another key opens nothing, and says what to do.
	cli.Setenv("TF_VAR_token_seal_key", encodedOtherKey)

	output, err = cli.Try("plan", "-input=false")
	require.Error(t, err)
	assert.Regexp(t, acctest.Says("Service account token sealed under another key", "rotation_trigger"), output)
	assert.Regexp(t, acctest.Says("Sealed token does not open with this key", "the key the token was sealed with", "rotation_trigger"), output)

	// A new trigger plans an update in place, and nothing rotates until it is applied.
	cli.WriteConfig(team{sealed: true, trigger: "2", body: teamNetwork(env)}.config(t, env))

	plan := cli.Run("plan", "-input=false", "-out=tfplan")
	assert.Contains(t, plan, "unikorn_service_account.pipeline will be updated in-place")
	assert.Contains(t, plan, "Not refreshed: provider configuration not known yet",
		"the team's network waits for the new token")
	assert.NotContains(t, plan, "must be replaced")
	assert.True(t, tokenWorks(t, env, first.Token), "a plan never rotates")

	cli.Run("apply", "-input=false", "tfplan")

	second := sealedToken(t, cli, otherKey)
	assert.NotEqual(t, first.Token, second.Token)
	assert.False(t, tokenWorks(t, env, first.Token), "the rotation revoked the old token")
	assert.True(t, tokenWorks(t, env, second.Token))

	cli.Run("plan", "-input=false", "-detailed-exitcode")
	cli.Run("destroy", "-input=false", "-auto-approve")
}

// TestAccServiceAccountTokenWithoutASealKey keeps the token nowhere: the run that
// creates the account hands it on, a later one cannot and says so, and a seal key
// with a rotation recovers.
func TestAccServiceAccountTokenWithoutASealKey(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	cli := acctest.ApplyInProcesses(t, team{trigger: "1", body: teamNetwork(env)}.config(t, env))

	account := stateResource(t, cli.ReadFile("terraform.tfstate"), "unikorn_service_account.pipeline")
	assert.Nil(t, account["sealed_token"], "without a key, nothing is kept")

	output, err := cli.Try("plan", "-input=false")
	require.Error(t, err)
	assert.Regexp(t, acctest.Says("No token of the service account to hand on", "did not create or rotate it in this run", "token_seal_key"), output)

	// With a key, the account's token is still not kept until a rotation issues one.
	key, encodedKey := newSealKey(t)
	cli.Setenv("TF_VAR_token_seal_key", encodedKey)
	cli.WriteConfig(team{sealed: true, trigger: "1", body: teamNetwork(env)}.config(t, env))

	output, err = cli.Try("plan", "-input=false")
	require.Error(t, err)
	assert.Contains(t, output, "Service account token not kept")

	cli.WriteConfig(team{sealed: true, trigger: "2", body: teamNetwork(env)}.config(t, env))
	cli.Run("apply", "-input=false", "-auto-approve")
	assert.True(t, tokenWorks(t, env, sealedToken(t, cli, key).Token))

	cli.Run("destroy", "-input=false", "-auto-approve")
	assert.Empty(t, env.LeftBehind(t), "nothing is left behind")
}

// TestAccLostServiceAccountCreateIsAdoptedWithoutItsToken loses the answer to the
// account's create after identity made it: the account is adopted, never made twice,
// with a warning that its token is lost, and a rotation_trigger issues a sealed one.
func TestAccLostServiceAccountCreateIsAdoptedWithoutItsToken(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	_, encodedKey := newSealKey(t)

	config := func(trigger string) string {
		provider := adminConfig(env)
		provider = provider[:len(provider)-2] + "  token_seal_key = " + acctest.Quote(encodedKey) + "\n}\n"

		return provider + userGroup("team") + `
resource "unikorn_service_account" "lost" {
  name             = "lost"
  group_ids        = [unikorn_group.team.id]
  rotation_trigger = { generation = ` + acctest.Quote(trigger) + ` }
}
`
	}

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			PreConfig: func() {
				env.AddFault(t, sandbox.FaultRule{
					Method: "POST", Route: "/api/v1/organizations/{organizationID}/serviceaccounts",
					Status: 502, Count: 1, Phase: sandbox.FaultPhaseAfter,
				})
			},
			Config: config("1"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("unikorn_service_account.lost", tfjsonpath.New("sealed_token"), knownvalue.Null()),
			},
			Check: func(*terraform.State) error {
				kinds := map[string]int{}
				for _, object := range env.LeftBehind(t) {
					kinds[object.Kind]++
				}

				assert.Equal(t, map[string]int{sandbox.ObjectGroup: 1, sandbox.ObjectServiceAccount: 1}, kinds, "one account, adopted")

				return nil
			},
		},
		resource.TestStep{
			Config: config("2"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("unikorn_service_account.lost", plancheck.ResourceActionUpdate),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("unikorn_service_account.lost", tfjsonpath.New("sealed_token"),
					knownvalue.StringRegexp(regexp.MustCompile(`^unikorn-sealed-v1:`))),
			},
		},
	))
}
