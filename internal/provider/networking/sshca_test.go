package networking_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// TestAccSSHCertificateAuthority_byIDAndByName reads the fixture authorities of both
// projects; by name, each is only found in its own.
func TestAccSSHCertificateAuthority_byIDAndByName(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	const publicKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBzTsPHmWKzGT4Ppj0gjE9I0tO/bkR4jUIXrz1g0Nl0Z"

	checks := attributesAre("data.unikorn_ssh_certificate_authority.by_name", map[string]knownvalue.Check{
		"id":              knownvalue.StringExact(sandbox.SSHCAID),
		"name":            knownvalue.StringExact("sandbox-ca"),
		"organization_id": knownvalue.StringExact(sandbox.OrganizationID),
		"project_id":      knownvalue.StringExact(sandbox.ProjectID),
		"public_key":      knownvalue.StringExact(publicKey),
		"description":     knownvalue.Null(),
		"tags":            knownvalue.MapExact(map[string]knownvalue.Check{}),
	})
	checks = append(checks,
		statecheck.ExpectKnownValue("data.unikorn_ssh_certificate_authority.by_id", tfjsonpath.New("public_key"), knownvalue.StringExact(publicKey)),
		statecheck.ExpectKnownValue("data.unikorn_ssh_certificate_authority.other", tfjsonpath.New("id"), knownvalue.StringExact(sandbox.OtherSSHCAID)),
		statecheck.ExpectKnownValue("data.unikorn_ssh_certificate_authority.other", tfjsonpath.New("project_id"), knownvalue.StringExact(sandbox.OtherProjectID)),
	)

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: env.ProviderConfig() + `
data "unikorn_ssh_certificate_authority" "this" {
  name = "other-ca"
}
`,
			ExpectError: regexp.MustCompile(`SSH certificate authority not found(.|\n)*No SSH certificate authority is\s+named\s+"other-ca"`),
		},
		resource.TestStep{
			Config: env.ProviderConfig() + `
data "unikorn_ssh_certificate_authority" "this" {
  id = "e0000000-0000-4000-8000-0000000000ff"
}
`,
			ExpectError: regexp.MustCompile(`SSH certificate authority not found`),
		},
		resource.TestStep{
			Config: env.ProviderConfig() + `
data "unikorn_ssh_certificate_authority" "by_id" {
  id = ` + acctest.Quote(sandbox.SSHCAID) + `
}

data "unikorn_ssh_certificate_authority" "by_name" {
  name = "sandbox-ca"
}

data "unikorn_ssh_certificate_authority" "other" {
  name       = "other-ca"
  project_id = ` + acctest.Quote(sandbox.OtherProjectID) + `
}
`,
			ConfigStateChecks: checks,
		},
	))
}
