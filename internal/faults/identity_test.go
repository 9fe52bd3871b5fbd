package faults_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/seal"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// identitySealKey seals the service account's token in every identity life: each
// life has a sandbox of its own, so one key serves them all.
var identitySealKey = []byte("fault-matrix-seal-key-32-bytes!!")

// identitySubject is a group, a project, a service account whose token is sealed in
// state and a user in the group, made by the empty organization's administrator,
// updated (the group's and the project's descriptions, a rotation of the account's
// token, and the user suspended in place), and destroyed.
func identitySubject() subject {
	return subject{
		name:   "identity",
		what:   "a project, a group, a service account and a user",
		kept:   "exactly one of each, none replaced, the sealed token the account's current one",
		config: identityConfig,
		agree:  identityAgreement,
		replaceRoutes: []string{
			"DELETE /api/v1/organizations/{organizationID}/projects/{projectID}",
			"DELETE /api/v1/organizations/{organizationID}/groups/{groupid}",
			"DELETE /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}",
			"DELETE /api/v1/organizations/{organizationID}/users/{userID}",
		},
	}
}

// identityUserSubject is the user's subject: identity knows a user by it, and a
// create whose answer was lost is adopted by it.
const identityUserSubject = "alice@example.com"

// identityConfig is the stack as the phase wants it, through a provider block of the
// administrator's beside the environment's.
func identityConfig(env *acctest.Environment, p phase) string {
	description, generation, userState := "first", "1", "active"
	if p != phaseCreate {
		description, generation, userState = "second", "2", "suspended"
	}

	return fmt.Sprintf(`
provider "unikorn" {
  alias             = "admin"
  region_endpoint   = %[1]s
  identity_endpoint = %[2]s
  token             = %[3]s
  organization_id   = %[4]s
  request_timeout   = %[5]s
  token_seal_key    = %[6]s
}

data "unikorn_roles" "all" {
  provider = unikorn.admin
}

resource "unikorn_group" "team" {
  provider    = unikorn.admin
  name        = "team"
  description = %[7]q
  role_ids    = [data.unikorn_roles.all.ids["user"]]
}

resource "unikorn_project" "team" {
  provider    = unikorn.admin
  name        = "team"
  description = %[7]q
  group_ids   = [unikorn_group.team.id]
}

resource "unikorn_service_account" "pipeline" {
  provider         = unikorn.admin
  name             = "pipeline"
  group_ids        = [unikorn_group.team.id]
  rotation_trigger = { generation = %[8]q }
}

resource "unikorn_user" "alice" {
  provider  = unikorn.admin
  subject   = %[9]q
  group_ids = [unikorn_group.team.id]
  state     = %[10]q
}
`, acctest.Quote(env.Settings.Endpoints[services.Region]), acctest.Quote(env.Settings.Endpoints[services.Identity]), acctest.Quote(sandbox.AdminToken),
		acctest.Quote(sandbox.EmptyOrganizationID), acctest.Quote(env.Settings.RequestTimeout),
		acctest.Quote(base64.StdEncoding.EncodeToString(identitySealKey)), description, generation, identityUserSubject, userState)
}

// identityAgreement proves that the sandbox holds exactly the stack (one of each,
// never two), that a plan finds nothing to change, and that the sealed token opens to
// a token identity accepts; after a delete, that the sandbox holds nothing made.
func identityAgreement(l *life, p phase) {
	l.t.Helper()

	made := l.env.LeftBehind(l.t)

	if p == phaseDelete {
		require.Empty(l.t, made, "nothing left behind")
		require.Empty(l.t, strings.TrimSpace(l.cli.Run("state", "list")), "nothing left in state")

		return
	}

	l.requirePlanEmpty(p)

	kinds := map[string]int{}
	for _, object := range made {
		kinds[object.Kind]++
	}

	require.Equal(l.t, map[string]int{sandbox.ObjectProject: 1, sandbox.ObjectGroup: 1, sandbox.ObjectServiceAccount: 1, sandbox.ObjectUser: 1}, kinds,
		"exactly the stack; the failed runs said:\n%s", strings.Join(l.failures, "\n---\n"))

	for _, object := range made {
		if object.Kind == sandbox.ObjectUser {
			require.Equal(l.t, identityUserSubject, object.Name, "the user is the subject configured")
			require.Contains(l.t, l.cli.Run("state", "show", "unikorn_user.alice"), object.ID, "the user in state")
		}
	}

	var state struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				Attributes struct {
					ID          string  `json:"id"`
					SealedToken *string `json:"sealed_token"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	require.NoError(l.t, json.Unmarshal([]byte(l.cli.ReadFile("terraform.tfstate")), &state))

	for _, resource := range state.Resources {
		if resource.Type != "unikorn_service_account" {
			continue
		}

		account := resource.Instances[0].Attributes

		if account.SealedToken == nil {
			// Only a create whose answer was lost keeps no token, and says so, in the run
			// that adopted it: the one that succeeded, or a failed one whose other
			// resources failed.
			require.Equal(l.t, phaseCreate, p, "a rotation seals its token")
			require.Contains(l.t, strings.Join(strings.Fields(strings.Join(append(l.failures, l.succeeded), " ")), " "),
				"Service account created without its token")

			return
		}

		token, err := seal.Open(identitySealKey, account.ID, *account.SealedToken)
		require.NoError(l.t, err)

		_, err = l.env.ClientAs(l.t, token.Token).ListServiceAccounts(context.Background(), sandbox.EmptyOrganizationID)
		require.NoError(l.t, err, "the sealed token is the account's current one")

		return
	}

	l.t.Fatal("no service account in state")
}
