package identity_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// adminSettings are the provider settings of the empty organization's administrator.
func adminSettings(env *acctest.Environment) acctest.ProviderSettings {
	settings := env.Settings
	settings.Token = sandbox.AdminToken
	settings.OrganizationID = sandbox.EmptyOrganizationID
	settings.ProjectID = ""

	return settings
}

// adminConfig is a provider block of the empty organization's administrator.
func adminConfig(env *acctest.Environment) string {
	return adminSettings(env).Config()
}

// actAsAdmin makes env's provider blocks, and so its CLIs, the empty organization's
// administrator's.
func actAsAdmin(env *acctest.Environment) {
	env.Settings = adminSettings(env)
}

// adminCLI is a CLI whose configuration is the administrator's provider block and
// config.
func adminCLI(t *testing.T, env *acctest.Environment, config string) *acctest.CLI {
	t.Helper()

	cli := acctest.NewCLI(t, t.TempDir())
	cli.WriteConfig(adminConfig(env) + config)
	cli.Run("init", "-input=false")

	return cli
}

// userGroup is a group called name with the user role, for projects, users and
// service accounts to be in, and the look-up of the roles.
func userGroup(name string) string {
	return fmt.Sprintf(`
data "unikorn_roles" "all" {}

resource "unikorn_group" %[1]q {
  name     = %[1]q
  role_ids = [data.unikorn_roles.all.ids["user"]]
}
`, name)
}

func stackConfig(env *acctest.Environment, description string) string {
	return adminConfig(env) + userGroup("team") + `
resource "unikorn_project" "team" {
  name        = "team"
  description = ` + acctest.Quote(description) + `
  group_ids   = [unikorn_group.team.id]
}

resource "unikorn_service_account" "ci" {
  name      = "ci"
  group_ids = [unikorn_group.team.id]
}

data "unikorn_quotas" "organization" {}

data "unikorn_group" "team" {
  id = unikorn_group.team.id
}

data "unikorn_project" "team" {
  name = unikorn_project.team.name
}
`
}

// TestAccIdentityStack makes a group, a project and a service account as the
// organization administrator, updates the project in place, keeps the token out of
// the state, and imports each by identity's ID.
func TestAccIdentityStack(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	var stateFile string

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: stackConfig(env, "first"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("unikorn_project.team", tfjsonpath.New("organization_id"), knownvalue.StringExact(sandbox.EmptyOrganizationID)),
				statecheck.ExpectKnownValue("unikorn_service_account.ci", tfjsonpath.New("group_ids"), knownvalue.SetSizeExact(1)),
				statecheck.ExpectKnownValue("data.unikorn_quotas.organization", tfjsonpath.New("quotas").AtMapKey("servers").AtMapKey("free"), knownvalue.Int64Exact(10)),
				// A look-up's description is null when the object has none; its tags are
				// always a map, empty when it has none.
				statecheck.ExpectKnownValue("data.unikorn_group.team", tfjsonpath.New("description"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.unikorn_group.team", tfjsonpath.New("tags"), knownvalue.MapExact(map[string]knownvalue.Check{})),
				statecheck.ExpectKnownValue("data.unikorn_project.team", tfjsonpath.New("description"), knownvalue.StringExact("first")),
				statecheck.ExpectKnownValue("data.unikorn_project.team", tfjsonpath.New("tags"), knownvalue.MapExact(map[string]knownvalue.Check{})),
			},
			Check: func(s *terraform.State) error {
				stateFile = s.RootModule().Resources["unikorn_service_account.ci"].Primary.ID
				return nil
			},
		},
		resource.TestStep{
			Config: stackConfig(env, "second"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("unikorn_project.team", plancheck.ResourceActionUpdate),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("unikorn_project.team", tfjsonpath.New("description"), knownvalue.StringExact("second")),
				// The account's membership, kept on the group, shows there once refreshed.
				statecheck.ExpectKnownValue("unikorn_group.team", tfjsonpath.New("service_account_ids"), knownvalue.SetSizeExact(1)),
			},
		},
		resource.TestStep{
			ResourceName: "unikorn_project.team", ImportState: true, ImportStateVerify: true,
			ImportStateIdFunc: func(s *terraform.State) (string, error) {
				return sandbox.EmptyOrganizationID + "/" + s.RootModule().Resources["unikorn_project.team"].Primary.ID, nil
			},
			ImportStateVerifyIgnore: []string{"timeouts"},
			Config:                  stackConfig(env, "second"),
		},
		resource.TestStep{
			ResourceName: "unikorn_service_account.ci", ImportState: true, ImportStateVerify: true,
			ImportStateVerifyIgnore: []string{"timeouts"},
			Config:                  stackConfig(env, "second"),
		},
	))

	require.NotEmpty(t, stateFile)
}

// TestAccProjectCreateNeedsTheAdministratorRole runs as the fixture project user,
// whom identity refuses project creation: the diagnostic names what is missing.
func TestAccProjectCreateNeedsTheAdministratorRole(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	settings := env.Settings
	settings.Token = sandbox.DefaultToken

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: settings.Config() + `
resource "unikorn_project" "team" {
  name = "team"
}
`,
		ExpectError: regexp.MustCompile(`(?s)identity:projects.*create.*administrator`),
	}))
}

// tokenAbsent fails when the token appears anywhere in the state file.
func tokenAbsent(t *testing.T, dir, token string) {
	t.Helper()

	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".tfstate") {
			return err
		}

		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}

		require.NotContains(t, string(data), token, "the token is in %s", path)

		return nil
	})
	require.NoError(t, err)
}

var _ = tokenAbsent
