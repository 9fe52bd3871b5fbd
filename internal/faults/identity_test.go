package faults_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/seal"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// TestEveryIdentityRequestFailing runs the matrix on an identity stack: a group, a
// project and a service account whose token is sealed in state, made by the empty
// organization's administrator, updated (the project's and group's descriptions, and
// a rotation of the account's token), and destroyed.
func TestEveryIdentityRequestFailing(t *testing.T) {
	everyRequestFailing(t, "a project, a group and a service account", "faults-matrix-identity",
		func(t *testing.T) subject { return newIdentityLife(t) })
}

// identityDeletes are the requests that delete an identity object.
var identityDeletes = []string{
	"DELETE /api/v1/organizations/{organizationID}/projects/{projectID}",
	"DELETE /api/v1/organizations/{organizationID}/groups/{groupid}",
	"DELETE /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}",
}

// identityLife is an identity stack's life in a sandbox of its own, through the
// Terraform CLI, as the empty organization's administrator.
type identityLife struct {
	t       *testing.T
	env     *acctest.Environment
	cli     *acctest.CLI
	gateway *gateway
	key     []byte
	// before is what the organization held before the life began.
	before []string
	// failures are what the failed runs of the last converge printed, succeeded what
	// its successful run did.
	failures  []string
	succeeded string
}

func newIdentityLife(t *testing.T) *identityLife {
	t.Helper()

	env := acctest.New(t, acctest.Production(t))
	env.SkipUnlessSandbox(t)
	env.Settings.RequestTimeout = requestTimeout

	g := newGateway(t, env.Settings.RegionEndpoint)
	env.Settings.RegionEndpoint, env.Settings.IdentityEndpoint = g.URL(), g.URL()

	key := make([]byte, seal.KeySize)
	_, err := rand.Read(key)
	require.NoError(t, err)

	cli := acctest.NewCLI(t, t.TempDir())
	l := &identityLife{
		t: t, env: env, cli: cli, gateway: g, key: key,
		before: env.OrganizationRecords(t, sandbox.EmptyOrganizationID),
	}
	cli.WriteConfig(l.config(phaseCreate))
	cli.Run("init", "-input=false")

	return l
}

// config is the stack as the phase wants it; the update changes what changes in
// place, and rotates the account's token.
func (l *identityLife) config(p phase) string {
	description, generation := "first", "1"
	if p != phaseCreate {
		description, generation = "second", "2"
	}

	settings := l.env.Settings
	settings.Token = sandbox.AdminToken
	settings.OrganizationID = sandbox.EmptyOrganizationID
	settings.ProjectID = ""
	provider := strings.TrimSuffix(settings.Config(), "}\n") +
		"  token_seal_key = " + acctest.Quote(base64.StdEncoding.EncodeToString(l.key)) + "\n}\n"

	return provider + fmt.Sprintf(`
data "unikorn_roles" "all" {}

resource "unikorn_group" "team" {
  name        = "team"
  description = %[1]q
  role_ids    = [data.unikorn_roles.all.ids["user"]]
}

resource "unikorn_project" "team" {
  name        = "team"
  description = %[1]q
  group_ids   = [unikorn_group.team.id]
}

resource "unikorn_service_account" "pipeline" {
  name             = "pipeline"
  group_ids        = [unikorn_group.team.id]
  rotation_trigger = { generation = %[2]q }
}
`, description, generation)
}

func (l *identityLife) environment() *acctest.Environment { return l.env }

func (l *identityLife) addFault(f fault, route string, occurrence int) {
	addFault(l.t, l.env, l.gateway, f, route, occurrence)
}

func (l *identityLife) clearFaults() {
	l.env.ClearFaults(l.t)
	l.gateway.clear()
}

func (l *identityLife) fired() int {
	return fired(l.t, l.env.Settings.RegionEndpoint, l.env.Settings.Token, l.gateway)
}

func (l *identityLife) failed() string { return strings.Join(l.failures, "\n---\n") }

// settleLostCharges has nothing to do: every identity object a lost answer made is
// found again by its list.
func (l *identityLife) settleLostCharges() int { return 0 }

func (l *identityLife) converge(p phase) int {
	l.t.Helper()

	args := []string{"apply", "-auto-approve", "-input=false"}
	if p == phaseDelete {
		args[0] = "destroy"
	} else {
		l.cli.WriteConfig(l.config(p))
	}

	l.failures, l.succeeded = nil, ""

	for run := 1; run <= maxRuns; run++ {
		output, err := l.cli.Try(args...)
		if err == nil {
			l.succeeded = output

			return run
		}

		l.failures = append(l.failures, output)
	}

	l.t.Fatalf("%s did not succeed in %d runs; the last said:\n%s", p, maxRuns, l.failures[len(l.failures)-1])

	return 0
}

func (l *identityLife) requireNothingReplaced(p phase) {
	l.t.Helper()

	if p == phaseDelete {
		return
	}

	stats := l.env.Stats(l.t)
	for _, route := range identityDeletes {
		require.Zero(l.t, stats.Routes[route], "%s deleted what it should have kept (%s)", p, route)
	}
}

// requireAgreement proves that the organization holds exactly the stack (one of each,
// never two), that the plan finds nothing to change, and that the sealed token opens
// to a token identity accepts; after a delete, that the organization holds what it
// held before.
func (l *identityLife) requireAgreement(p phase) {
	l.t.Helper()

	records := l.env.OrganizationRecords(l.t, sandbox.EmptyOrganizationID)

	if p == phaseDelete {
		require.Equal(l.t, l.before, records, "nothing left behind")
		require.Empty(l.t, strings.TrimSpace(l.cli.Run("state", "list")), "nothing left in state")

		return
	}

	output, err := l.cli.Try("plan", "-detailed-exitcode", "-input=false")
	require.NoError(l.t, err, "state and cloud disagree after %s:\n%s", p, output)

	kinds := map[string]int{}
	for _, record := range records {
		if !slices.Contains(l.before, record) {
			kinds[record[:strings.LastIndex(record, " ")]]++
		}
	}

	require.Equal(l.t, map[string]int{"identity project": 1, "identity group": 1, "identity service account": 1}, kinds,
		"exactly the stack; the failed runs said:\n%s", l.failed())

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
			// Only a create whose answer was lost keeps no token, and says so.
			require.Equal(l.t, phaseCreate, p, "a rotation seals its token")
			require.Contains(l.t, strings.Join(strings.Fields(l.succeeded), " "), "Service account created without its token")

			return
		}

		token, err := seal.Open(l.key, account.ID, *account.SealedToken)
		require.NoError(l.t, err)

		client, err := unikorn.NewClient(unikorn.Config{
			RegionEndpoint: l.env.Settings.RegionEndpoint, IdentityEndpoint: l.env.Settings.IdentityEndpoint, Token: token.Token,
		})
		require.NoError(l.t, err)

		_, err = client.ListServiceAccounts(context.Background(), sandbox.EmptyOrganizationID)
		require.NoError(l.t, err, "the sealed token is the account's current one")

		return
	}

	l.t.Fatal("no service account in state")
}
