package private_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// readByID are the kinds the façade reads by ID through cloud.Object, each with the
// route of that read (what a refresh and a data source by ID send, and what a delete
// reads after it), and whether only the organization's administrator makes it.
var readByID = []struct {
	typeName, route string
	admin           bool
}{
	{"unikorn_network", "/api/v2/networks/{networkID}", false},
	{"unikorn_security_group", "/api/v2/securitygroups/{securityGroupID}", false},
	{"unikorn_ssh_certificate_authority", "/api/v2/sshcertificateauthorities/{sshCertificateAuthorityID}", false},
	{"unikorn_file_storage", "/api/v2/filestorage/{filestorageID}", false},
	{"unikorn_load_balancer", "/api/v2/loadbalancers/{loadBalancerID}", false},
	{"unikorn_group", "/api/v1/organizations/{organizationID}/groups/{groupid}", true},
	{"unikorn_project", "/api/v1/organizations/{organizationID}/projects/{projectID}", true},
}

// readLagged is one object of each kind of readByID called "lagged", and with
// dataSources a data source by ID of each: region's objects under the environment's
// provider, identity's under the empty organization's administrator.
func readLagged(t *testing.T, env *acctest.Environment, authorityKey string, dataSources bool) string {
	t.Helper()

	given := env.Given(t)
	given.AuthorityKey = authorityKey
	given.Network = "unikorn_network.lagged.id"

	var b strings.Builder

	b.WriteString(env.ProviderConfigWithAdmin())

	for _, kind := range readByID {
		var with []acctest.Attribute
		if kind.admin {
			with = append(with, acctest.Admin)
		}

		b.WriteString("\n" + acctest.Block(kind.typeName, "lagged", given, with...))
	}

	if !dataSources {
		return b.String()
	}

	for _, kind := range readByID {
		provider := ""
		if kind.admin {
			provider = "  provider = unikorn.admin\n"
		}

		fmt.Fprintf(&b, "\ndata %q \"lagged\" {\n%s  id = %s.lagged.id\n}\n", kind.typeName, provider, kind.typeName)
	}

	return b.String()
}

// TestAccA404WithinTheReadLagIsNoAnswer has every read by ID of a refresh and of a
// data source answered first with a 404, as a cache that has not seen an object made
// moments ago answers (this run's, or the last's, behind a replica that trails).
// Each reads again until the read lag has passed: the refresh keeps every object in
// state, planning nothing, and each data source finds its object. Believing the first
// 404 would drop the objects from state, to be made a second time, and fail the data
// sources.
func TestAccA404WithinTheReadLagIsNoAnswer(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	authorityKey := acctest.NewAuthorityKey(t)
	cli := acctest.ApplyInProcesses(t, readLagged(t, env, authorityKey, false))

	answer404 := func() {
		env.ResetStats(t)

		for _, kind := range readByID {
			env.AddFault(t, sandbox.FaultRule{Method: "GET", Route: kind.route, Status: 404, Count: 1})
		}
	}

	// Each route answered its 404, and was read again.
	readAgain := func(t *testing.T) {
		t.Helper()

		routes := env.Stats(t).Routes
		for _, kind := range readByID {
			assert.GreaterOrEqual(t, routes["GET "+kind.route], 2, kind.route)
		}
	}

	t.Run("refresh", func(t *testing.T) {
		answer404()

		plan := cli.Run("plan", "-input=false")

		assert.Contains(t, plan, "No changes", "the refresh kept every object")
		assert.NotContains(t, plan, "will be created")
		readAgain(t)
	})

	t.Run("data sources", func(t *testing.T) {
		cli.WriteConfig(readLagged(t, env, authorityKey, true))
		answer404()

		// Without a refresh, only the data sources read.
		output, err := cli.Try("plan", "-input=false", "-refresh=false")

		assert.NoError(t, err, output)
		assert.False(t, strings.Contains(output, "Error:"), output)
		readAgain(t)
	})
}
