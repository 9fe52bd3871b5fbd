package acctest

import (
	"testing"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// ProviderConfigWithAdmin is the environment's provider block followed by a second
// one, aliased "admin" (`provider = unikorn.admin`), of the sandbox's empty
// organization's administrator, who may make identity's objects (groups, projects,
// service accounts) there. It makes no instance, so it names no instance back end.
// Two blocks of the provider need a process of their own each (NewProcessCLI, or
// ApplyInProcesses).
func (e *Environment) ProviderConfigWithAdmin() string {
	admin := e.Settings
	admin.Alias = "admin"
	admin.Token = sandbox.AdminToken
	admin.OrganizationID = sandbox.EmptyOrganizationID
	admin.ProjectID = ""
	admin.InstanceAPI, admin.Endpoints[services.Compute] = "", ""

	return e.ProviderConfig() + admin.Config()
}

// ApplyInProcesses applies config in a CLI that runs each provider block in a process
// of its own, as users run it (see NewProcessCLI), and returns the CLI.
func ApplyInProcesses(t *testing.T, config string) *CLI {
	t.Helper()

	cli := NewProcessCLI(t, t.TempDir())
	cli.WriteConfig(config)
	cli.Run("apply", "-auto-approve", "-input=false")

	return cli
}
