package identity_test

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/seal"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// newSealKey draws a seal key and returns it and its base64 form, as a user would
// give it to the provider.
func newSealKey(t *testing.T) ([]byte, string) {
	t.Helper()

	key := make([]byte, seal.KeySize)
	_, err := rand.Read(key)
	require.NoError(t, err)

	return key, base64.StdEncoding.EncodeToString(key)
}

// team describes a configuration that builds, as the empty organization's
// administrator, a group, a project and a service account, and with the account's
// token, through a second provider block ("team"), what body adds in the new project.
type team struct {
	// sealed gives the administrator's provider a token_seal_key from the ephemeral
	// variable token_seal_key, which Terraform keeps in neither the state nor a saved
	// plan, and the ephemeral resource the sealed token.
	sealed bool
	// trigger, when set, is the service account's rotation_trigger generation.
	trigger string
	// body is what the team's provider builds, and anything else.
	body string
}

func (c team) config(t *testing.T, env *acctest.Environment) string {
	t.Helper()

	admin := env.Settings
	compute := env.SettingsFor(t, acctest.ComputeBackend)

	var key, sealedToken, trigger string
	if c.sealed {
		key = `
variable "token_seal_key" {
  type      = string
  sensitive = true
  ephemeral = true
}
`
		sealedToken = "\n  sealed_token       = unikorn_service_account.pipeline.sealed_token"
	}

	if c.trigger != "" {
		trigger = "\n  rotation_trigger = { generation = " + acctest.Quote(c.trigger) + " }"
	}

	sealKey := ""
	if c.sealed {
		sealKey = "\n  token_seal_key    = var.token_seal_key"
	}

	return key + fmt.Sprintf(`
provider "unikorn" {
  region_endpoint   = %[1]s
  identity_endpoint = %[2]s
  token             = %[3]s
  organization_id   = %[4]s%[6]s
}

data "unikorn_roles" "all" {}

resource "unikorn_group" "team" {
  name     = "team"
  role_ids = [data.unikorn_roles.all.ids["user"]]
}

resource "unikorn_project" "team" {
  name      = "team"
  group_ids = [unikorn_group.team.id]
}

resource "unikorn_service_account" "pipeline" {
  name      = "pipeline"
  group_ids = [unikorn_group.team.id]%[8]s
}

ephemeral "unikorn_service_account_token" "pipeline" {
  service_account_id = unikorn_service_account.pipeline.id%[7]s
}

provider "unikorn" {
  alias            = "team"
  region_endpoint  = %[1]s
  compute_endpoint = %[5]s
  instance_api     = "compute"
  token            = ephemeral.unikorn_service_account_token.pipeline.token
  organization_id  = %[4]s
  project_id       = unikorn_project.team.id
}
`, acctest.Quote(admin.Endpoints[services.Region]), acctest.Quote(admin.Endpoints[services.Identity]), acctest.Quote(sandbox.AdminToken),
		acctest.Quote(sandbox.EmptyOrganizationID), acctest.Quote(compute.Endpoints[services.Compute]), sealKey, sealedToken, trigger) + c.body
}

// teamNetwork is a network the team's provider builds in the new project.
func teamNetwork(env *acctest.Environment) string {
	return `
resource "unikorn_network" "team" {
  provider  = unikorn.team
  name      = "team"
  region_id = ` + acctest.Quote(env.RegionID) + `
  prefix    = "10.70.0.0/24"
}
`
}

// stateResource returns the attributes of the one instance of a resource in a state
// file.
func stateResource(t *testing.T, state, address string) map[string]any {
	t.Helper()

	var parsed struct {
		Resources []struct {
			Type      string `json:"type"`
			Name      string `json:"name"`
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	require.NoError(t, json.Unmarshal([]byte(state), &parsed))

	for _, resource := range parsed.Resources {
		if resource.Type+"."+resource.Name == address {
			require.Len(t, resource.Instances, 1)

			return resource.Instances[0].Attributes
		}
	}

	t.Fatalf("%s is not in the state", address)

	return nil
}

// fromTheEmptyOrganization is a fresh sandbox, and a CLI that runs each provider
// block as a process of its own (as for users), with encodedKey as its token seal key.
func fromTheEmptyOrganization(t *testing.T, encodedKey string) (*acctest.Environment, *acctest.CLI) {
	t.Helper()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	require.Empty(t, env.LeftBehind(t), "a fresh sandbox")

	cli := acctest.NewProcessCLI(t, t.TempDir())
	cli.Setenv("TF_VAR_token_seal_key", encodedKey)

	return env, cli
}

// builtThenDestroyed checks that the sandbox records each of built, the state
// attributes of a resource by the sandbox's kind of its object, in the empty
// organization; then that the next plan has nothing to do, and that one destroy leaves
// nothing in the sandbox's records.
func builtThenDestroyed(t *testing.T, env *acctest.Environment, cli *acctest.CLI, built map[string]map[string]any) {
	t.Helper()

	recorded := map[string]string{}
	for _, object := range env.LeftBehind(t) {
		recorded[object.Kind+" "+object.ID] = object.OrganizationID
	}

	for kind, attributes := range built {
		record := kind + " " + attribute(t, attributes, "id")
		assert.Equal(t, sandbox.EmptyOrganizationID, recorded[record], "%s is in the sandbox's records", record)
	}

	cli.Run("plan", "-input=false", "-detailed-exitcode")

	cli.Run("destroy", "-input=false", "-auto-approve")
	assert.Empty(t, env.LeftBehind(t), "nothing is left behind")
}

// attribute returns a string attribute of a resource in a state file.
func attribute(t *testing.T, attributes map[string]any, name string) string {
	t.Helper()

	value, ok := attributes[name].(string)
	require.True(t, ok, "%s is %v, not a string", name, attributes[name])

	return value
}

// secretAbsent fails when secret, or its base64 or hex form, is anywhere in content.
func secretAbsent(t *testing.T, content, secret, what string) {
	t.Helper()

	for _, form := range []string{
		secret,
		base64.StdEncoding.EncodeToString([]byte(secret)), base64.RawStdEncoding.EncodeToString([]byte(secret)),
		base64.URLEncoding.EncodeToString([]byte(secret)), hex.EncodeToString([]byte(secret)),
	} {
		require.NotContains(t, content, form, "%s is in the state file", what)
	}
}

// TestAccFromAnEmptyOrganization starts from an organization with no project and its
// administrator's token, builds a project, its group and a service account, and with
// the account's token (sealed in state, opened by the ephemeral resource) builds a
// network and an instance in the new project through a second provider block; a
// later plan opens the sealed token again and has nothing to do, and one destroy
// leaves nothing in the sandbox's records.
func TestAccFromAnEmptyOrganization(t *testing.T) {
	t.Parallel()

	key, encodedKey := newSealKey(t)
	env, cli := fromTheEmptyOrganization(t, encodedKey)

	cli.WriteConfig(team{sealed: true, body: teamNetwork(env) + `
# A resource that takes the project made in this run, under the administrator's
# provider.
resource "unikorn_network" "admin" {
  name       = "admin"
  project_id = unikorn_project.team.id
  region_id  = ` + acctest.Quote(env.RegionID) + `
  prefix     = "10.72.0.0/24"
}

resource "unikorn_compute_instance" "web" {
  provider   = unikorn.team
  name       = "web"
  network_id = unikorn_network.team.id
  flavor_id  = ` + acctest.Quote(env.FlavorID) + `
  image_id   = ` + acctest.Quote(env.ImageID) + `
}
`}.config(t, env))

	// One plan, with the project, the account and its token unknown: the second
	// provider block is configured only when they are made.
	plan := cli.Run("plan", "-input=false", "-out=tfplan")
	assert.Contains(t, plan, "unikorn_compute_instance.web will be created")
	cli.Run("apply", "-input=false", "tfplan")

	state := cli.ReadFile("terraform.tfstate")
	account := stateResource(t, state, "unikorn_service_account.pipeline")
	sealed := attribute(t, account, "sealed_token")
	require.NotEmpty(t, sealed, "the token is kept sealed")

	token, err := seal.Open(key, attribute(t, account, "id"), sealed)
	require.NoError(t, err)
	require.NotEmpty(t, token.Token)

	secretAbsent(t, state, token.Token, "the service account's token")
	secretAbsent(t, state, encodedKey, "the seal key")
	secretAbsent(t, cli.ReadFile("tfplan"), encodedKey, "the seal key")

	for range 3 {
		_, other := newSealKey(t)
		otherKey, err := base64.StdEncoding.DecodeString(other)
		require.NoError(t, err)
		_, err = seal.Open(otherKey, attribute(t, account, "id"), sealed)
		require.ErrorIs(t, err, seal.ErrWrongKey, "nothing in the state opens without the key")
	}

	// The opened token is the account's: identity lets it see itself.
	accounts, err := env.ClientAs(t, token.Token).ListServiceAccounts(t.Context(), sandbox.EmptyOrganizationID)
	require.NoError(t, err)
	require.Len(t, accounts, 1)
	assert.Equal(t, account["id"], accounts[0].Metadata.ID)

	project := stateResource(t, state, "unikorn_project.team")
	network := stateResource(t, state, "unikorn_network.team")
	instance := stateResource(t, state, "unikorn_compute_instance.web")
	assert.Equal(t, project["id"], network["project_id"], "the second provider's project_id was the new project")
	assert.Equal(t, project["id"], instance["project_id"])
	assert.Equal(t, project["id"], stateResource(t, state, "unikorn_network.admin")["project_id"])

	// A later run opens the sealed token again, with no request, and finds nothing to do.
	builtThenDestroyed(t, env, cli, map[string]map[string]any{
		sandbox.ObjectProject:        project,
		sandbox.ObjectServiceAccount: account,
		sandbox.ObjectNetwork:        network,
		sandbox.ObjectInstance:       instance,
	})
}

// TestAccPeopleAndImagesFromAnEmptyOrganization is an organization administrator
// onboarding a team in one apply, from an organization with no project: a group with a
// role, a colleague made a user in it, a project, an image of the team's own brought
// from a URL, and, with the team's own token, an instance booted from that image. The
// next plan has nothing to do, and one destroy leaves nothing in the sandbox's records:
// no user, group, image, instance or allocation.
func TestAccPeopleAndImagesFromAnEmptyOrganization(t *testing.T) {
	t.Parallel()

	// Two blocks of the provider, the team's with the service account's token, which
	// the next run opens again from the state.
	_, encodedKey := newSealKey(t)
	env, cli := fromTheEmptyOrganization(t, encodedKey)

	given := acctest.Given{Region: acctest.Quote(env.RegionID), Group: "unikorn_group.team.id"}

	cli.WriteConfig(team{sealed: true, body: teamNetwork(env) +
		acctest.Block("unikorn_user", "colleague", given) + acctest.Block("unikorn_image", "own", given) + `
resource "unikorn_compute_instance" "web" {
  provider   = unikorn.team
  name       = "web"
  network_id = unikorn_network.team.id
  flavor_id  = ` + acctest.Quote(env.FlavorID) + `
  image_id   = unikorn_image.own.id
}
`}.config(t, env))

	cli.Run("apply", "-input=false", "-auto-approve")

	state := cli.ReadFile("terraform.tfstate")
	group := stateResource(t, state, "unikorn_group.team")
	user := stateResource(t, state, "unikorn_user.colleague")
	image := stateResource(t, state, "unikorn_image.own")
	instance := stateResource(t, state, "unikorn_compute_instance.web")

	assert.Equal(t, "ready", attribute(t, image, "state"))
	assert.Equal(t, attribute(t, image, "id"), attribute(t, instance, "image_id"), "the instance boots from the team's image")

	// Identity has the colleague in the group, with the group's role.
	users, err := env.ClientAs(t, sandbox.AdminToken).ListUsers(t.Context(), sandbox.EmptyOrganizationID)
	require.NoError(t, err)

	found := false

	for _, u := range users {
		if u.Metadata.ID == attribute(t, user, "id") {
			found = true

			assert.Equal(t, "colleague@example.com", u.Spec.Subject)
			assert.Equal(t, []string{attribute(t, group, "id")}, u.Spec.GroupIDs)
		}
	}

	assert.True(t, found, "identity lists the colleague")

	builtThenDestroyed(t, env, cli, map[string]map[string]any{
		sandbox.ObjectGroup:    group,
		sandbox.ObjectUser:     user,
		sandbox.ObjectImage:    image,
		sandbox.ObjectInstance: instance,
	})
}
