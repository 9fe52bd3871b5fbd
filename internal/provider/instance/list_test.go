package instance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// member is one instance of a test fleet.
type member struct {
	name, networkID, projectID, tags string
}

// fleet is two web servers and a database on the project's two networks, and a
// batch worker in another project of the organization.
var fleet = []member{
	{"web-1", sandbox.NetworkDefaultID, sandbox.ProjectID, `{ team = "web", tier = "front" }`},
	{"web-2", sandbox.NetworkDefaultID, sandbox.ProjectID, `{ team = "web" }`},
	{"db-1", sandbox.NetworkSecondaryID, sandbox.ProjectID, `{ team = "db" }`},
	{"batch-1", sandbox.NetworkOtherID, sandbox.OtherProjectID, `{ team = "batch" }`},
}

// fleetConfig declares the members as resources named after them.
func fleetConfig(env *acctest.Environment, members []member) string {
	var b strings.Builder

	for _, m := range members {
		fmt.Fprintf(&b, `
resource "unikorn_compute_instance" %q {
  name       = %q
  network_id = %q
  flavor_id  = %q
  image_id   = %q
  tags       = %s
}
`, m.name, m.name, m.networkID, env.FlavorID, env.ImageID, m.tags)
	}

	return b.String()
}

// listBlock is a list block of the instance list resource with the given body.
func listBlock(name, body string) string {
	return fmt.Sprintf(`
list "unikorn_compute_instance" %q {
  provider = unikorn
%s
}
`, name, body)
}

// identityOf is the identity every result of m carries.
func identityOf(t *testing.T, m member) map[string]knownvalue.Check {
	t.Helper()

	id, err := unikorn.DeriveServerID(m.networkID, m.name)
	if err != nil {
		t.Fatal(err)
	}

	return map[string]knownvalue.Check{
		"id":              knownvalue.StringExact(id),
		"organization_id": knownvalue.StringExact(sandbox.OrganizationID),
		"project_id":      knownvalue.StringExact(m.projectID),
	}
}

func displayNameOf(t *testing.T, m member) string {
	t.Helper()

	id, err := unikorn.DeriveServerID(m.networkID, m.name)
	if err != nil {
		t.Fatal(err)
	}

	return m.name + " (" + id + ")"
}

func TestAccInstanceListFilters(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	web1, web2, db, batch := fleet[0], fleet[1], fleet[2], fleet[3]

	queries := listBlock("all", "") +
		listBlock("project", fmt.Sprintf("  config {\n    project_id = %q\n  }", sandbox.ProjectID)) +
		listBlock("network", fmt.Sprintf("  config {\n    network_id = %q\n  }", sandbox.NetworkSecondaryID)) +
		listBlock("region", fmt.Sprintf("  config {\n    region_id = %q\n  }", sandbox.RegionID)) +
		listBlock("web", "  config {\n    tags = { team = \"web\" }\n  }") +
		listBlock("front", "  config {\n    tags = { team = \"web\", tier = \"front\" }\n  }") +
		listBlock("limited", "  limit = 2") +
		listBlock("full", fmt.Sprintf("  include_resource = true\n  config {\n    network_id = %q\n  }", sandbox.NetworkSecondaryID))

	checks := []querycheck.QueryResultCheck{
		querycheck.ExpectLength("unikorn_compute_instance.all", 4),
		querycheck.ExpectLength("unikorn_compute_instance.project", 3),
		querycheck.ExpectLength("unikorn_compute_instance.network", 1),
		querycheck.ExpectLength("unikorn_compute_instance.region", 4),
		querycheck.ExpectLength("unikorn_compute_instance.web", 2),
		querycheck.ExpectLength("unikorn_compute_instance.front", 1),
		querycheck.ExpectLength("unikorn_compute_instance.limited", 2),
		querycheck.ExpectLength("unikorn_compute_instance.full", 1),
		querycheck.ExpectIdentity("unikorn_compute_instance.network", identityOf(t, db)),
		querycheck.ExpectIdentity("unikorn_compute_instance.front", identityOf(t, web1)),
		querycheck.ExpectIdentity("unikorn_compute_instance.web", identityOf(t, web2)),
		querycheck.ExpectResourceKnownValues("unikorn_compute_instance.full", queryfilter.ByResourceIdentity(identityOf(t, db)),
			[]querycheck.KnownValueCheck{
				{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact("db-1")},
				{Path: tfjsonpath.New("network_id"), KnownValue: knownvalue.StringExact(sandbox.NetworkSecondaryID)},
				{Path: tfjsonpath.New("region_id"), KnownValue: knownvalue.StringExact(sandbox.RegionID)},
				{Path: tfjsonpath.New("flavor_id"), KnownValue: knownvalue.StringExact(env.FlavorID)},
				{Path: tfjsonpath.New("tags"), KnownValue: knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("db")})},
				{Path: tfjsonpath.New("provisioning_status"), KnownValue: knownvalue.StringExact("provisioned")},
				{Path: tfjsonpath.New("power_state"), KnownValue: knownvalue.StringExact("Running")},
				{Path: tfjsonpath.New("private_ip"), KnownValue: knownvalue.StringRegexp(ipv4)},
				{Path: tfjsonpath.New("public_ip"), KnownValue: knownvalue.Bool(false)},
				// What only a configuration knows is not made up.
				{Path: tfjsonpath.New("user_data"), KnownValue: knownvalue.Null()},
				{Path: tfjsonpath.New("timeouts"), KnownValue: knownvalue.Null()},
			}),
	}

	// Every instance appears once in the unfiltered list, with its identity and display name.
	for _, m := range fleet {
		checks = append(checks,
			querycheck.ExpectIdentity("unikorn_compute_instance.all", identityOf(t, m)),
			querycheck.ExpectResourceDisplayName("unikorn_compute_instance.all",
				queryfilter.ByResourceIdentity(identityOf(t, m)), knownvalue.StringExact(displayNameOf(t, m))))
	}

	_ = batch

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{Config: env.ProviderConfig() + fleetConfig(env, fleet)},
		resource.TestStep{Query: true, Config: queries, QueryResultChecks: checks},
	))
}
