package instance_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
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
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)
		acctest.SkipUnlessSupported(t, acctest.ListResources)

		web1, web2, db := fleet[0], fleet[1], fleet[2]

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

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{Config: env.ProviderConfig() + fleetConfig(env, fleet)},
			resource.TestStep{Query: true, Config: queries, QueryResultChecks: checks},
			resource.TestStep{
				Query:       true,
				Config:      listBlock("reserved", "  config {\n    tags = { \"compute.unikorn-cloud.org/instance-id\" = \"x\" }\n  }"),
				ExpectError: regexp.MustCompile(`Invalid tag name`),
			},
		))
	}, acctest.Production(t))
}

// Configuration that `terraform query` generates imports the instances it found, and
// the plan after the import is empty. It works against a real Unikorn too: a tag
// unique to the run keeps the query to the test's own instances.
func TestAccInstanceQueryGeneratesConfigurationThatImports(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		acctest.SkipUnlessSupported(t, acctest.ListResources)
		run := uuid.NewString()[:8]

		var members []member
		for _, suffix := range []string{"a", "b"} {
			members = append(members, member{"query-" + run + "-" + suffix, env.NetworkID, env.Settings.ProjectID,
				fmt.Sprintf("{ run = %q }", run)})
		}

		creator := env.CLI(t, fleetConfig(env, members))
		creator.Run("apply", "-auto-approve", "-input=false")
		t.Cleanup(func() { creator.Run("destroy", "-auto-approve", "-input=false") })

		importer := env.CLI(t, "")
		importer.WriteFile("find.tfquery.hcl", listBlock("found", fmt.Sprintf("  config {\n    tags = { run = %q }\n  }", run)))

		found := importer.Run("query", "-generate-config-out=generated.tf")
		generated := importer.ReadFile("generated.tf")

		for _, m := range members {
			id, err := unikorn.DeriveServerID(m.networkID, m.name)
			require.NoError(t, err)

			assert.Contains(t, found, m.name+" ("+id+")")
			assert.Regexp(t, `identity = \{\s+id\s+= "`+id+`"`, generated)
			assert.Contains(t, generated, `name                         = "`+m.name+`"`)
		}

		plan := importer.Run("plan", "-input=false")
		assert.Contains(t, plan, "Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.")

		importer.Run("apply", "-auto-approve", "-input=false")
		// The importer now manages the instances; it destroys them before the creator,
		// which then finds them gone.
		t.Cleanup(func() { importer.Run("destroy", "-auto-approve", "-input=false") })

		// -detailed-exitcode fails the command (exit code 2) when the plan has changes.
		assert.Contains(t, importer.Run("plan", "-input=false", "-detailed-exitcode"), "No changes.")
	}, acctest.Production(t))
}

// An instance that two servers claim cannot be imported, so the query leaves it out
// and says why, naming both servers.
func TestAccInstanceQueryWarnsAboutAnInstanceTwoServersClaim(t *testing.T) {
	t.Parallel()

	// Region only: compute shows each instance once, whatever servers claim it.
	env := acctest.New(t, acctest.WithBackend(acctest.RegionBackend), acctest.Production(t))
	env.SkipUnlessSandbox(t)
	acctest.SkipUnlessSupported(t, acctest.ListResources)

	cli := env.CLI(t, resourceOnly(env, baseAttrs(env)))
	cli.Run("apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { cli.Run("destroy", "-auto-approve", "-input=false") })

	impostorID := createImpostor(t, env, "web")
	// Removed before the destroy, which needs the instance to be unambiguous again.
	t.Cleanup(func() { deleteServerBehindTerraform(t, env, impostorID) })

	cli.WriteFile("find.tfquery.hcl", listBlock("all", ""))
	found := cli.Run("query")

	assert.Contains(t, found, "Warning: Instance left out: more than one server claims it")
	assert.Regexp(t, wrapped(impostorID), found)
	assert.Regexp(t, wrapped(instanceID(t, "web")), found)
	assert.Regexp(t, wrapped(`list.unikorn_compute_instance.all] returned 0 results`), found, "no result is shown for the instance")
}

// The provider itself stops at the limit and leaves the resource object out unless
// asked for it; Terraform would hide both, so this talks to the provider directly.
func TestListHonoursLimitAndIncludeResource(t *testing.T) {
	t.Parallel()

	world := cloudtest.Start(t, cloudtest.Config{Token: sandbox.PlatformAdminToken})

	for _, name := range []string{"a", "b", "c"} {
		_, err := compute.NewService(world.Session).Create(t.Context(), compute.Spec{
			Name: name, NetworkID: sandbox.NetworkDefaultID, FlavorID: sandbox.FlavorStandardID, ImageID: sandbox.ImageUbuntuID,
		})
		require.NoError(t, err)
	}

	served, schemas := acctest.ProtocolServer(t, map[string]string{
		"region_endpoint": world.URL, "identity_endpoint": world.URL,
		"token": sandbox.PlatformAdminToken, "organization_id": sandbox.OrganizationID,
	})

	server, ok := served.(tfprotov6.ListResourceServer)
	require.True(t, ok, "the provider server lists resources")

	list := func(limit int64, includeResource bool) []tfprotov6.ListResourceResult {
		stream, err := server.ListResource(t.Context(), &tfprotov6.ListResourceRequest{
			TypeName:        "unikorn_compute_instance",
			Config:          acctest.DynamicValue(t, schemas.ListResourceSchemas["unikorn_compute_instance"].Block, nil),
			IncludeResource: includeResource,
			Limit:           limit,
		})
		require.NoError(t, err)

		return slices.Collect(stream.Results)
	}

	results := list(2, false)
	require.Len(t, results, 2)

	for _, result := range results {
		assert.Empty(t, result.Diagnostics)
		assert.NotNil(t, result.Identity)
		assert.Nil(t, result.Resource)
	}

	results = list(100, true)
	require.Len(t, results, 3)
	assert.Equal(t, "a ("+instanceID(t, "a")+")", results[0].DisplayName)
	assert.NotNil(t, results[0].Resource)
}
