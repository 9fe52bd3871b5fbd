package diagnostic_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// auditorToken is the token of a service account in a group that holds the
// organization's auditor role: it reads everything of the fixture organization, so
// every check at plan passes, and may create nothing.
func auditorToken(t *testing.T, env *acctest.Environment) string {
	t.Helper()

	admin := env.ClientAs(t, sandbox.AdminToken)

	group, err := admin.CreateGroup(t.Context(), sandbox.OrganizationID, unikorn.GroupWrite{
		Metadata: unikorn.WriteMetadata{Name: "auditors"},
		Spec:     unikorn.GroupSpec{RoleIDs: []string{sandbox.AuditorRoleID}, ServiceAccountIDs: []string{}},
	})
	require.NoError(t, err)

	account, err := admin.CreateServiceAccount(t.Context(), sandbox.OrganizationID, unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "auditor"},
		Spec:     unikorn.ServiceAccountSpec{GroupIDs: []string{group.Metadata.ID}},
	})
	require.NoError(t, err)

	return account.Status.AccessToken
}

// refusedApply applies body with token in the fixture organization's project: region
// (or compute) refuses the create with RBAC's 403, which is reported as a right the
// token's account lacks, never as quota nor as a network failure.
func refusedApply(t *testing.T, env *acctest.Environment, token, body string, right ...string) {
	t.Helper()

	settings := env.Settings
	settings.Token = token
	settings.OrganizationID = sandbox.OrganizationID
	settings.ProjectID = sandbox.ProjectID

	cli := acctest.NewCLI(t, t.TempDir())
	cli.WriteConfig(settings.Config() + body)
	cli.Run("init", "-input=false")

	output, err := cli.Try("apply", "-input=false", "-auto-approve")
	require.Error(t, err, output)
	assert.Regexp(t, acctest.Says(append([]string{"lacks the right to"}, right...)...), output)
	assert.NotContains(t, acctest.Unwrapped(output), "quota")
	assert.NotContains(t, acctest.Unwrapped(output), "could not be reached")
}

// TestAccRBACRefusalOfAnOutsiderNamesTheProject: a member of another organization is
// refused a network in the fixture project, "project is not in this principal's
// accessible set", which region answers with 403 as it answers quota.
func TestAccRBACRefusalOfAnOutsiderNamesTheProject(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	refusedApply(t, env, sandbox.ForeignToken, `
resource "unikorn_network" "n" {
  name      = "n"
  region_id = `+acctest.Quote(sandbox.RegionID)+`
  prefix    = "10.90.0.0/24"
}
`, "create `region:networks:v2`", "group that the project names")
}

// TestAccRBACRefusalsAreNotQuota: region answers 403 for RBAC and for quota alike;
// every family reads the body, and an RBAC refusal names the right.
func TestAccRBACRefusalsAreNotQuota(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	token := auditorToken(t, env)
	region := acctest.Quote(sandbox.RegionID)
	network := acctest.Quote(sandbox.NetworkDefaultID)

	tests := map[string]struct {
		body  string
		right string
	}{
		"network": {
			body: `
resource "unikorn_network" "n" {
  name      = "n"
  region_id = ` + region + `
  prefix    = "10.90.0.0/24"
}
`,
			right: "create `region:networks:v2`",
		},
		"security group": {
			body: `
resource "unikorn_security_group" "g" {
  name       = "g"
  network_id = ` + network + `
  rules      = []
}
`,
			right: "create `region:securitygroups:v2`",
		},
		"SSH certificate authority": {
			body: `
resource "unikorn_ssh_certificate_authority" "ca" {
  name       = "ca"
  public_key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBzTsPHmWKzGT4Ppj0gjE9I0tO/bkR4jUIXrz1g0Nl0Z"
}
`,
			right: "create `region:sshcertificateauthorities:v2`",
		},
		"load balancer": {
			body: `
resource "unikorn_load_balancer" "lb" {
  name       = "lb"
  network_id = ` + network + `
  listeners = {
    web = { protocol = "tcp", port = 80 }
  }
}
`,
			right: "create `region:loadbalancers:v2`",
		},
		"file storage": {
			body: `
resource "unikorn_file_storage" "fs" {
  name             = "fs"
  region_id        = ` + region + `
  storage_class_id = ` + acctest.Quote(sandbox.StorageClassStandardID) + `
  size_gib         = 10
}
`,
			right: "create `region:filestorage:v2`",
		},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			refusedApply(t, env, token, test.body, test.right)
		})
	}
}

// instanceOnTheDefaultNetwork is an instance of the sandbox's standard flavor and
// image on its default network: what the refusals of an instance's create and of its
// snapshot are asked of.
var instanceOnTheDefaultNetwork = `
resource "unikorn_compute_instance" "i" {
  name       = "i"
  network_id = ` + acctest.Quote(sandbox.NetworkDefaultID) + `
  flavor_id  = ` + acctest.Quote(sandbox.FlavorStandardID) + `
  image_id   = ` + acctest.Quote(sandbox.ImageUbuntuID) + `
}
`

// TestAccRBACRefusalOfAnInstanceIsNotQuota refuses an instance's create on each
// instance path with a 403 that is not about quota, where each path charges the
// quota: compute's create, or identity's allocation on the region path. Both answer
// a spent quota with 403 too; only the body tells them apart.
func TestAccRBACRefusalOfAnInstanceIsNotQuota(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		route := "/api/v1/organizations/{organizationID}/projects/{projectID}/allocations"
		if env.Settings.InstanceAPI == acctest.ComputeBackend.InstanceAPI {
			route = sandbox.ComputePrefix + "/api/v2/instances"
		}

		env.AddFault(t, sandbox.FaultRule{Method: "POST", Route: route, Status: 403, Count: 1})

		cli := env.CLI(t, instanceOnTheDefaultNetwork)

		output, err := cli.Try("apply", "-input=false", "-auto-approve")
		require.Error(t, err, output)
		assert.Regexp(t, acctest.Says("403 forbidden: user credentials do not have the required privileges",
			"lacks the right to do this"), output)
		assert.NotContains(t, acctest.Unwrapped(output), "quota does not allow")
		assert.NotContains(t, acctest.Unwrapped(output), "more quota")
	})
}

// TestAccRBACRefusalOfASnapshotIsNotQuota refuses a snapshot of an instance on each
// instance path with a 403 that says nothing of quota: the diagnostic says so too.
func TestAccRBACRefusalOfASnapshotIsNotQuota(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		cli := env.CLI(t, instanceOnTheDefaultNetwork)
		cli.Run("apply", "-input=false", "-auto-approve")

		t.Cleanup(func() { cli.Run("destroy", "-input=false", "-auto-approve") })

		route := "/api/v2/servers/{serverID}/snapshot"
		if env.Settings.InstanceAPI == acctest.ComputeBackend.InstanceAPI {
			route = sandbox.ComputePrefix + "/api/v2/instances/{instanceID}/snapshot"
		}

		env.AddFault(t, sandbox.FaultRule{Method: "POST", Route: route, Status: 403, Count: 1})

		cli.WriteConfig(env.ProviderConfig() + instanceOnTheDefaultNetwork + `
resource "unikorn_snapshot" "s" {
  instance_id = unikorn_compute_instance.i.id
  name        = "s"
}
`)

		output, err := cli.Try("apply", "-input=false", "-auto-approve")
		require.Error(t, err, output)
		// Region's server API refuses with 403 only a token without service rights.
		right := "lacks the right to do this"
		if env.Settings.InstanceAPI == acctest.RegionBackend.InstanceAPI {
			right = "only a service account or a platform administrator may call it"
		}

		assert.Regexp(t, acctest.Says("403 forbidden: user credentials do not have the required privileges", right), output)
		assert.NotContains(t, acctest.Unwrapped(output), "quota")
		assert.NotContains(t, acctest.Unwrapped(output), "could not be reached")
	})
}
