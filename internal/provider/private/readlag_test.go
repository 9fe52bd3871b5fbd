package private_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// readRoutes are the reads by ID of every kind the façade reads through cloud.Object:
// what a refresh and a data source by ID send.
var readRoutes = []string{
	"/api/v2/networks/{networkID}",
	"/api/v2/securitygroups/{securityGroupID}",
	"/api/v2/sshcertificateauthorities/{sshCertificateAuthorityID}",
	"/api/v2/filestorage/{filestorageID}",
	"/api/v2/loadbalancers/{loadBalancerID}",
	"/api/v1/organizations/{organizationID}/groups/{groupid}",
	"/api/v1/organizations/{organizationID}/projects/{projectID}",
}

func readLagged(env *acctest.Environment, authorityKey string, dataSources bool) string {
	config := env.ProviderConfigWithAdmin() + fmt.Sprintf(`
resource "unikorn_network" "lagged" {
  name      = "lagged"
  region_id = %[1]s
  prefix    = "10.75.0.0/24"
}

resource "unikorn_security_group" "lagged" {
  name       = "lagged"
  network_id = unikorn_network.lagged.id
  rules      = [{ direction = "ingress", protocol = "tcp", port = 22 }]
}

resource "unikorn_ssh_certificate_authority" "lagged" {
  name       = "lagged"
  public_key = %[2]s
}

resource "unikorn_file_storage" "lagged" {
  name             = "lagged"
  region_id        = %[1]s
  storage_class_id = %[3]s
  size_gib         = 3
}

resource "unikorn_load_balancer" "lagged" {
  name       = "lagged"
  network_id = unikorn_network.lagged.id
  listeners = {
    web = { protocol = "tcp", port = 443 }
  }
}

resource "unikorn_group" "lagged" {
  provider = unikorn.admin
  name     = "lagged"
  role_ids = []
}

resource "unikorn_project" "lagged" {
  provider = unikorn.admin
  name     = "lagged"
}
`, acctest.Quote(env.RegionID), acctest.Quote(authorityKey), acctest.Quote(sandbox.StorageClassStandardID))

	if dataSources {
		config += `
data "unikorn_network" "lagged" {
  id = unikorn_network.lagged.id
}

data "unikorn_security_group" "lagged" {
  id = unikorn_security_group.lagged.id
}

data "unikorn_ssh_certificate_authority" "lagged" {
  id = unikorn_ssh_certificate_authority.lagged.id
}

data "unikorn_file_storage" "lagged" {
  id = unikorn_file_storage.lagged.id
}

data "unikorn_load_balancer" "lagged" {
  id = unikorn_load_balancer.lagged.id
}

data "unikorn_group" "lagged" {
  provider = unikorn.admin
  id       = unikorn_group.lagged.id
}

data "unikorn_project" "lagged" {
  provider = unikorn.admin
  id       = unikorn_project.lagged.id
}
`
	}

	return config
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
	cli := acctest.ApplyInProcesses(t, readLagged(env, authorityKey, false))

	answer404 := func() {
		env.ResetStats(t)

		for _, route := range readRoutes {
			env.AddFault(t, sandbox.FaultRule{Method: "GET", Route: route, Status: 404, Count: 1})
		}
	}

	// Each route answered its 404, and was read again.
	readAgain := func(t *testing.T) {
		t.Helper()

		routes := env.Stats(t).Routes
		for _, route := range readRoutes {
			assert.GreaterOrEqual(t, routes["GET "+route], 2, route)
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
		cli.WriteConfig(readLagged(env, authorityKey, true))
		answer404()

		// Without a refresh, only the data sources read.
		output, err := cli.Try("plan", "-input=false", "-refresh=false")

		assert.NoError(t, err, output)
		assert.False(t, strings.Contains(output, "Error:"), output)
		readAgain(t)
	})
}
