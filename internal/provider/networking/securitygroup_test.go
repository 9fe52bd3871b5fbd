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

func port(n int) *int { return &n }

// TestAccSecurityGroup_byIDAndByName reads fixture groups, and one with every kind of
// rule, by ID and by name; a name two networks share needs network_id. The failing
// look-ups come first, because the last step's configuration is also destroyed.
func TestAccSecurityGroup_byIDAndByName(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	twin, err := env.Client.CreateSecurityGroup(t.Context(), unikorn.SecurityGroupCreate{
		Metadata: unikorn.WriteMetadata{Name: "allow-web", Description: "web on the secondary network"},
		Spec: unikorn.SecurityGroupCreateSpec{
			SecurityGroupSpec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{
				{Direction: "ingress", Protocol: "tcp", Port: port(8000), PortMax: port(8080), Prefix: "192.0.2.0/24"},
				{Direction: "egress", Protocol: "any"},
			}},
			NetworkID: sandbox.NetworkSecondaryID,
		},
	})
	require.NoError(t, err)

	rule := func(direction, protocol string, port, portMax knownvalue.Check, prefix string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{
			"direction": knownvalue.StringExact(direction),
			"protocol":  knownvalue.StringExact(protocol),
			"port":      port,
			"port_max":  portMax,
			"prefix":    knownvalue.StringExact(prefix),
		})
	}

	checks := attributesAre("data.unikorn_security_group.by_id", map[string]knownvalue.Check{
		"id":              knownvalue.StringExact(sandbox.SecurityGroupAllowWebID),
		"name":            knownvalue.StringExact("allow-web"),
		"network_id":      knownvalue.StringExact(sandbox.NetworkDefaultID),
		"region_id":       knownvalue.StringExact(sandbox.RegionID),
		"organization_id": knownvalue.StringExact(sandbox.OrganizationID),
		"project_id":      knownvalue.StringExact(sandbox.ProjectID),
		"description":     knownvalue.Null(),
		"tags":            knownvalue.MapExact(map[string]knownvalue.Check{}),
		"rules": knownvalue.ListExact([]knownvalue.Check{
			rule("ingress", "tcp", knownvalue.Int64Exact(80), knownvalue.Null(), "0.0.0.0/0"),
			rule("ingress", "tcp", knownvalue.Int64Exact(443), knownvalue.Null(), "0.0.0.0/0"),
		}),
	})
	checks = append(checks, attributesAre("data.unikorn_security_group.secondary", map[string]knownvalue.Check{
		"id":          knownvalue.StringExact(twin.Metadata.ID),
		"network_id":  knownvalue.StringExact(sandbox.NetworkSecondaryID),
		"description": knownvalue.StringExact("web on the secondary network"),
		"rules": knownvalue.ListExact([]knownvalue.Check{
			rule("ingress", "tcp", knownvalue.Int64Exact(8000), knownvalue.Int64Exact(8080), "192.0.2.0/24"),
			rule("egress", "any", knownvalue.Null(), knownvalue.Null(), "0.0.0.0/0"),
		}),
	})...)
	checks = append(checks,
		statecheck.ExpectKnownValue("data.unikorn_security_group.ssh", tfjsonpath.New("id"), knownvalue.StringExact(sandbox.SecurityGroupAllowSSHID)))

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: env.ProviderConfig() + `
data "unikorn_security_group" "ambiguous" {
  name = "allow-web"
}
`,
			ExpectError: regexp.MustCompile(`Ambiguous security group name(.|\n)*\((` +
				sandbox.SecurityGroupAllowWebID + `, ` + twin.Metadata.ID + `|` + twin.Metadata.ID + `, ` + sandbox.SecurityGroupAllowWebID +
				`)\)(.|\n)*narrow\s+the\s+look-up\s+with\s+` + "`network_id`"),
		},
		resource.TestStep{
			Config: env.ProviderConfig() + `
data "unikorn_security_group" "wrong_network" {
  name       = "allow-ssh"
  network_id = ` + acctest.Quote(sandbox.NetworkOtherID) + `
}
`,
			ExpectError: regexp.MustCompile(`Security group not found(.|\n)*No security group is named "allow-ssh" in\s+network\s+` + sandbox.NetworkOtherID +
				`(.|\n)*organization_id,\s+project_id,\s+network_id`),
		},
		resource.TestStep{
			Config: env.ProviderConfig() + `
data "unikorn_security_group" "both" {
  id         = ` + acctest.Quote(sandbox.SecurityGroupAllowWebID) + `
  network_id = ` + acctest.Quote(sandbox.NetworkDefaultID) + `
}
`,
			ExpectError: regexp.MustCompile(`Invalid Attribute Combination`),
		},
		resource.TestStep{
			Config: env.ProviderConfig() + `
data "unikorn_security_group" "by_id" {
  id = ` + acctest.Quote(sandbox.SecurityGroupAllowWebID) + `
}

data "unikorn_security_group" "secondary" {
  name       = "allow-web"
  network_id = ` + acctest.Quote(sandbox.NetworkSecondaryID) + `
}

# Unique in the project, so no network is needed.
data "unikorn_security_group" "ssh" {
  name = "allow-ssh"
}
`,
			ConfigStateChecks: checks,
		},
	))
}
