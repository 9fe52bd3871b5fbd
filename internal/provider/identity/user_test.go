package identity_test

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const userAddress = "unikorn_user.alice"

// userConfig is a group and a user in it, of subject and state (empty: unset), and
// the look-ups of the user and of the organization.
func userConfig(env *acctest.Environment, subject, state string) string {
	config := adminConfig(env) + userGroup("team") + `
resource "unikorn_user" "alice" {
  subject   = ` + acctest.Quote(subject) + `
  group_ids = [unikorn_group.team.id]
`
	if state != "" {
		config += "  state     = " + acctest.Quote(state) + "\n"
	}

	return config + `}

data "unikorn_user" "alice" {
  subject = unikorn_user.alice.subject
}

data "unikorn_user" "by_id" {
  id = unikorn_user.alice.id
}

data "unikorn_organization" "this" {}
`
}

// usersOf are the empty organization's users, as identity lists them.
func usersOf(t *testing.T, env *acctest.Environment) []unikorn.User {
	t.Helper()

	users, err := env.ClientAs(t, sandbox.AdminToken).ListUsers(context.Background(), sandbox.EmptyOrganizationID)
	require.NoError(t, err)

	return users
}

func userOf(t *testing.T, env *acctest.Environment, id string) unikorn.User {
	t.Helper()

	for _, user := range usersOf(t, env) {
		if user.Metadata.ID == id {
			return user
		}
	}

	require.Failf(t, "no such user", "user %s is not in the organization", id)

	return unikorn.User{}
}

// TestAccUser makes a user in a group as the organization administrator, looks it
// up by subject and by ID, changes its state in place, replaces it for a new subject,
// imports it three ways, plans back a state changed outside Terraform, and recreates
// it once deleted outside Terraform.
func TestAccUser(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	var id string

	keepID := func(s *terraform.State) error { //nolint:unparam // a check, whose signature Terraform's tests fix
		id = s.RootModule().Resources[userAddress].Primary.ID

		return nil
	}

	// kept keeps the user's ID too, and checks whether the step kept the user it had.
	kept := func(same bool, why string) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			before := id
			if err := keepID(s); err != nil {
				return err
			}

			assert.Equal(t, same, before == id, "%s (%s, then %s)", why, before, id)

			return nil
		}
	}

	admin := env.ClientAs(t, sandbox.AdminToken)

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: userConfig(env, "alice@example.com", ""),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(userAddress, tfjsonpath.New("state"), knownvalue.StringExact("active")),
				statecheck.ExpectKnownValue(userAddress, tfjsonpath.New("organization_id"), knownvalue.StringExact(sandbox.EmptyOrganizationID)),
				statecheck.ExpectKnownValue(userAddress, tfjsonpath.New("group_ids"), knownvalue.SetSizeExact(1)),
				statecheck.CompareValuePairs("data.unikorn_user.alice", tfjsonpath.New("id"), userAddress, tfjsonpath.New("id"), compare.ValuesSame()),
				statecheck.CompareValuePairs("data.unikorn_user.by_id", tfjsonpath.New("subject"), userAddress, tfjsonpath.New("subject"), compare.ValuesSame()),
				statecheck.ExpectKnownValue("data.unikorn_user.alice", tfjsonpath.New("group_ids"), knownvalue.SetSizeExact(1)),
				statecheck.ExpectKnownValue("data.unikorn_user.alice", tfjsonpath.New("last_active"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.unikorn_organization.this", tfjsonpath.New("id"), knownvalue.StringExact(sandbox.EmptyOrganizationID)),
				statecheck.ExpectKnownValue("data.unikorn_organization.this", tfjsonpath.New("name"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue("data.unikorn_organization.this", tfjsonpath.New("organization_type"), knownvalue.NotNull()),
			},
			Check: keepID,
		},
		resource.TestStep{
			Config: userConfig(env, "alice@example.com", "suspended"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(userAddress, plancheck.ResourceActionUpdate),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(userAddress, tfjsonpath.New("state"), knownvalue.StringExact("suspended")),
				statecheck.ExpectKnownValue("data.unikorn_user.alice", tfjsonpath.New("state"), knownvalue.StringExact("suspended")),
			},
			Check: kept(true, "a change of state is made in place"),
		},
		resource.TestStep{
			Config: userConfig(env, "alice.b@example.com", "suspended"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(userAddress, plancheck.ResourceActionDestroyBeforeCreate),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(userAddress, tfjsonpath.New("subject"), knownvalue.StringExact("alice.b@example.com")),
			},
			Check: keepID,
		},
		resource.TestStep{ResourceName: userAddress, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"}},
		resource.TestStep{
			ResourceName: userAddress, ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"},
			ImportStateIdFunc: func(s *terraform.State) (string, error) {
				return sandbox.EmptyOrganizationID + "/" + s.RootModule().Resources[userAddress].Primary.ID, nil
			},
		},
		resource.TestStep{ResourceName: userAddress, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
		resource.TestStep{
			// A state changed outside Terraform is planned back.
			PreConfig: func() {
				user := userOf(t, env, id)
				_, err := admin.UpdateUser(context.Background(), sandbox.EmptyOrganizationID, id, unikorn.UserWrite{
					Spec: unikorn.UserSpec{Subject: user.Spec.Subject, State: unikorn.UserPending, GroupIDs: user.Spec.GroupIDs},
				})
				require.NoError(t, err)
			},
			Config: userConfig(env, "alice.b@example.com", "suspended"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(userAddress, plancheck.ResourceActionUpdate),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(userAddress, tfjsonpath.New("state"), knownvalue.StringExact("suspended")),
			},
		},
		resource.TestStep{
			// A user deleted outside Terraform is made again.
			PreConfig: func() {
				require.NoError(t, admin.DeleteUser(context.Background(), sandbox.EmptyOrganizationID, id))
			},
			Config: userConfig(env, "alice.b@example.com", "suspended"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(userAddress, plancheck.ResourceActionCreate),
			}},
			Check: kept(false, "the user is made anew"),
		},
	))

	assert.False(t, slices.ContainsFunc(usersOf(t, env), func(user unikorn.User) bool {
		return user.Spec.Subject == "alice@example.com" || user.Spec.Subject == "alice.b@example.com"
	}), "destroy leaves no user behind")
}
