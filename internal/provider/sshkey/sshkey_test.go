package sshkey_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// cloudKey reads the key of instance web straight from the API, as the expected value.
func cloudKey(t *testing.T, env *acctest.Environment) string {
	t.Helper()

	id, err := unikorn.DeriveServerID(env.NetworkID, "web")
	require.NoError(t, err)

	servers := env.Servers(t, unikorn.ServerQuery{Tags: unikorn.Tags{{Name: compute.InstanceIDTag, Value: id}}})
	require.Len(t, servers, 1)

	key, err := env.Client.GetServerSSHKey(t.Context(), servers[0].Metadata.ID)
	require.NoError(t, err)
	require.NotEmpty(t, key.PrivateKey)

	return key.PrivateKey
}

// isCloudKey matches the instance's key, or its public half, read when checked.
func isCloudKey(t *testing.T, env *acctest.Environment, public bool) knownvalue.Check {
	return knownvalue.StringFunc(func(value string) error {
		want := cloudKey(t, env)

		if public {
			signer, err := ssh.ParsePrivateKey([]byte(want))
			require.NoError(t, err)

			want = strings.TrimSpace(string(ssh.MarshalAuthorizedKey(signer.PublicKey())))
		}

		if value != want {
			return fmt.Errorf("got %q, want the instance's key %q", value, want)
		}

		return nil
	})
}

// TestAccSSHKey_ephemeralAndDataSource reads the key of an instance through the
// ephemeral resource, made visible by the echo provider, and through the data source,
// in the same apply that creates the instance: both give the key exactly as the API
// does. Narrowed to a project the instance is not in, neither finds it.
func TestAccSSHKey_ephemeralAndDataSource(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {

		config := env.ProviderConfig() + env.WebInstance() + `
ephemeral "unikorn_compute_instance_ssh_key" "web" {
  instance_id = unikorn_compute_instance.web.id
}

provider "echo" {
  data = ephemeral.unikorn_compute_instance_ssh_key.web
}

resource "echo" "key" {}

data "unikorn_compute_instance_ssh_key" "web" {
  instance_id = unikorn_compute_instance.web.id
}
`

		echoed := func(attribute string) tfjsonpath.Path { return tfjsonpath.New("data").AtMapKey(attribute) }

		resource.ParallelTest(t, resource.TestCase{
			PreCheck:                 func() { env.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactoriesWithEcho,
			TerraformVersionChecks:   acctest.TerraformVersionChecks(),
			Steps: []resource.TestStep{
				{
					Config: config,
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue("echo.key", echoed("private_key"), isCloudKey(t, env, false)),
						statecheck.ExpectKnownValue("echo.key", echoed("public_key_openssh"), isCloudKey(t, env, true)),
						statecheck.CompareValuePairs("echo.key", echoed("instance_id"),
							"unikorn_compute_instance.web", tfjsonpath.New("id"), compare.ValuesSame()),
						statecheck.ExpectKnownValue("echo.key", echoed("organization_id"), knownvalue.Null()),
						statecheck.CompareValuePairs("echo.key", echoed("private_key"),
							"data.unikorn_compute_instance_ssh_key.web", tfjsonpath.New("private_key"), compare.ValuesSame()),
						statecheck.CompareValuePairs("echo.key", echoed("public_key_openssh"),
							"data.unikorn_compute_instance_ssh_key.web", tfjsonpath.New("public_key_openssh"), compare.ValuesSame()),
					},
				},
				{
					Config: config + `
ephemeral "unikorn_compute_instance_ssh_key" "elsewhere" {
  instance_id = unikorn_compute_instance.web.id
  project_id  = ` + acctest.Quote(sandbox.OtherProjectID) + `
}

provider "echo" {
  alias = "elsewhere"
  data  = ephemeral.unikorn_compute_instance_ssh_key.elsewhere
}

resource "echo" "elsewhere" {
  provider = echo.elsewhere
}
`,
					ExpectError: regexp.MustCompile(`Unable to read the instance's SSH key(.|\n)*The instance does not exist`),
					SkipFunc:    func() (bool, error) { return !env.IsSandbox(), nil },
				},
				{
					Config: config + `
data "unikorn_compute_instance_ssh_key" "elsewhere" {
  instance_id = unikorn_compute_instance.web.id
  project_id  = ` + acctest.Quote(sandbox.OtherProjectID) + `
}
`,
					ExpectError: regexp.MustCompile(`Unable to read the instance's SSH key(.|\n)*The instance does not exist`),
					SkipFunc:    func() (bool, error) { return !env.IsSandbox(), nil },
				},
				// The last configuration is also the one destroyed, so it must work.
				{Config: config},
			},
		})
	})
}

// TestAccSSHKey_neverInPlanOrState runs the Terraform CLI itself: a provisioner uses
// the ephemeral key during apply (and writes it where the test can see it), yet
// neither the state file nor a plan made afterwards, when the key is read while
// planning, contains it.
func TestAccSSHKey_neverInPlanOrState(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		keyFile := filepath.Join(t.TempDir(), "key")

		cli := env.CLI(t, env.WebInstance())
		cli.Run("apply", "-auto-approve", "-input=false")

		cli.WriteConfig(env.ProviderConfig() + env.WebInstance() + `
ephemeral "unikorn_compute_instance_ssh_key" "web" {
  instance_id = unikorn_compute_instance.web.id
}

resource "terraform_data" "uses_key" {
  input = unikorn_compute_instance.web.id

  provisioner "local-exec" {
    command = "printf '%s' \"$KEY\" > ` + keyFile + `"
    environment = {
      KEY = ephemeral.unikorn_compute_instance_ssh_key.web.private_key
    }
  }
}
`)

		cli.Run("apply", "-auto-approve", "-input=false")

		key := cloudKey(t, env)

		used, err := os.ReadFile(keyFile)
		require.NoError(t, err)
		assert.Equal(t, key, string(used), "the provisioner did not get the instance's key")

		state := cli.Run("state", "pull")
		assert.Contains(t, state, `"terraform_data"`, "that is not the state")
		assert.NotContains(t, state, key)
		assert.NotContains(t, state, "PRIVATE KEY")

		assert.Contains(t, cli.Run("plan", "-out=tfplan", "-input=false"), "No changes.")

		plan := cli.Run("show", "-json", "tfplan")
		assert.Contains(t, plan, `"terraform_data"`, "that is not the plan")
		assert.NotContains(t, plan, key)
		assert.NotContains(t, plan, "PRIVATE KEY")

		cli.Run("destroy", "-auto-approve", "-input=false")
	})
}
