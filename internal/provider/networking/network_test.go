package networking_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// attributesAre checks each named attribute of address.
func attributesAre(address string, checks map[string]knownvalue.Check) []statecheck.StateCheck {
	result := make([]statecheck.StateCheck, 0, len(checks))
	for attribute, check := range checks {
		result = append(result, statecheck.ExpectKnownValue(address, tfjsonpath.New(attribute), check))
	}

	return result
}

// TestAccNetwork_byID reads the environment's network; it runs against a real
// Unikorn too.
func TestAccNetwork_byID(t *testing.T) {
	env := acctest.New(t)

	network, err := env.Client.GetNetwork(t.Context(), env.NetworkID)
	require.NoError(t, err)

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: env.ProviderConfig() + `
data "unikorn_network" "this" {
  id = ` + acctest.Quote(env.NetworkID) + `
}
`,
		ConfigStateChecks: attributesAre("data.unikorn_network.this", map[string]knownvalue.Check{
			"id":              knownvalue.StringExact(network.Metadata.ID),
			"name":            knownvalue.StringExact(network.Metadata.Name),
			"organization_id": knownvalue.StringExact(network.Metadata.OrganizationID),
			"project_id":      knownvalue.StringExact(network.Metadata.ProjectID),
			"region_id":       knownvalue.StringExact(env.RegionID),
			"prefix":          knownvalue.StringExact(network.Status.Prefix),
		}),
	}))
}

// TestAccNetwork_byName finds networks by name in the provider's project and in one
// given explicitly, and shows every attribute of one with a description, tags and
// DNS servers.
func TestAccNetwork_byName(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	created, err := env.Client.CreateNetwork(t.Context(), unikorn.NetworkCreate{
		Metadata: unikorn.WriteMetadata{
			Name: "described", Description: "a network with everything",
			Tags: unikorn.Tags{{Name: "team", Value: "web"}, {Name: "env", Value: "test"}},
		},
		Spec: unikorn.NetworkCreateSpec{
			NetworkSpec:    unikorn.NetworkSpec{DNSNameservers: []string{"192.0.2.53", "192.0.2.54"}},
			OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.ProjectID, RegionID: sandbox.RegionID,
			Prefix: "10.9.0.0/24",
		},
	})
	require.NoError(t, err)

	checks := attributesAre("data.unikorn_network.described", map[string]knownvalue.Check{
		"id":              knownvalue.StringExact(created.Metadata.ID),
		"name":            knownvalue.StringExact("described"),
		"description":     knownvalue.StringExact("a network with everything"),
		"tags":            knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("web"), "env": knownvalue.StringExact("test")}),
		"organization_id": knownvalue.StringExact(sandbox.OrganizationID),
		"project_id":      knownvalue.StringExact(sandbox.ProjectID),
		"region_id":       knownvalue.StringExact(sandbox.RegionID),
		"prefix":          knownvalue.StringExact("10.9.0.0/24"),
		"dns_nameservers": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("192.0.2.53"), knownvalue.StringExact("192.0.2.54")}),
	})
	checks = append(checks, attributesAre("data.unikorn_network.default", map[string]knownvalue.Check{
		"id":              knownvalue.StringExact(sandbox.NetworkDefaultID),
		"description":     knownvalue.Null(),
		"tags":            knownvalue.MapExact(map[string]knownvalue.Check{}),
		"dns_nameservers": knownvalue.ListExact([]knownvalue.Check{}),
		"prefix":          knownvalue.StringExact("10.0.0.0/24"),
	})...)
	checks = append(checks, attributesAre("data.unikorn_network.other_project", map[string]knownvalue.Check{
		"id":         knownvalue.StringExact(sandbox.NetworkOtherID),
		"project_id": knownvalue.StringExact(sandbox.OtherProjectID),
	})...)

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: env.ProviderConfig() + `
data "unikorn_network" "described" {
  name = "described"
}

data "unikorn_network" "default" {
  name = "default"
}

data "unikorn_network" "other_project" {
  name       = "other"
  project_id = ` + acctest.Quote(sandbox.OtherProjectID) + `
}
`,
		ConfigStateChecks: checks,
	}))
}

// TestAccNetwork_notFound covers an ID nobody has, a name of another project, and a
// name that several networks share, which must name them all.
func TestAccNetwork_notFound(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	twin, err := env.Client.CreateNetwork(t.Context(), unikorn.NetworkCreate{
		Metadata: unikorn.WriteMetadata{Name: "default"},
		Spec: unikorn.NetworkCreateSpec{
			NetworkSpec:    unikorn.NetworkSpec{DNSNameservers: []string{}},
			OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.ProjectID, RegionID: sandbox.RegionID,
			Prefix: "10.8.0.0/24",
		},
	})
	require.NoError(t, err)

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: env.ProviderConfig() + `
data "unikorn_network" "this" {
  id = "c0000000-0000-4000-8000-0000000000ff"
}
`,
			ExpectError: regexp.MustCompile(`Network not found(.|\n)*Network c0000000-0000-4000-8000-0000000000ff does not\s+exist`),
		},
		resource.TestStep{
			Config: env.ProviderConfig() + `
data "unikorn_network" "this" {
  name = "other"
}
`,
			ExpectError: regexp.MustCompile(`Network not found(.|\n)*No network is named "other" in project\s+` + sandbox.ProjectID),
		},
		resource.TestStep{
			Config: env.ProviderConfig() + `
data "unikorn_network" "this" {
  name = "default"
}
`,
			ExpectError: regexp.MustCompile(`Ambiguous network name(.|\n)*The name "default" does not say which network\s+is\s+meant:\s+2\s+in\s+project(.|\n)*\((` +
				sandbox.NetworkDefaultID + `,\s+` + twin.Metadata.ID + `|` + twin.Metadata.ID + `,\s+` + sandbox.NetworkDefaultID +
				`)\)(.|\n)*Look the network up by\s+` + "`id`"),
		},
	))
}

// TestAccNetwork_selectorValidation rejects configurations that do not say how to
// find the network, or say it twice, before any API call.
func TestAccNetwork_selectorValidation(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config:      env.ProviderConfig() + `data "unikorn_network" "this" {}`,
			ExpectError: regexp.MustCompile(`Exactly one of these attributes must be configured: \[id,name\]`),
		},
		resource.TestStep{
			Config: env.ProviderConfig() + `
data "unikorn_network" "this" {
  id   = ` + acctest.Quote(sandbox.NetworkDefaultID) + `
  name = "default"
}
`,
			ExpectError: regexp.MustCompile(`Invalid Attribute Combination(.|\n)*Exactly one of these attributes must be configured: \[id,name\]`),
		},
		resource.TestStep{
			Config: env.ProviderConfig() + `
data "unikorn_network" "this" {
  id         = ` + acctest.Quote(sandbox.NetworkDefaultID) + `
  project_id = ` + acctest.Quote(sandbox.ProjectID) + `
}
`,
			ExpectError: regexp.MustCompile(`Invalid Attribute Combination(.|\n)*cannot be configured together`),
		},
	))

	require.Zero(t, env.Stats(t).Routes["GET /api/v2/networks"])
	require.Zero(t, env.Stats(t).Routes["GET /api/v2/networks/{networkID}"])
}
