package acctest

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/stretchr/testify/assert"
)

// TestCase is the frame of a test of steps against the environment: its PreCheck, the
// provider served to the CLI, and the CLI versions every test needs. A test that needs
// more (a CheckDestroy, a feature's version check, the echo provider) sets it on the
// result.
func (e *Environment) TestCase(t *testing.T, steps ...resource.TestStep) resource.TestCase {
	t.Helper()

	return resource.TestCase{
		PreCheck:                 func() { e.PreCheck(t) },
		ProtoV6ProviderFactories: ProtoV6ProviderFactories,
		TerraformVersionChecks:   TerraformVersionChecks(),
		Steps:                    steps,
	}
}

// ExpectAction is the plan check of a step whose plan must take action on address,
// checked before the plan is applied.
func ExpectAction(address string, action plancheck.ResourceActionType) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, action)}}
}

// Query is one round of `terraform query`: what a CLI with no configuration of its own
// found and generated, before it imports any of it.
type Query struct {
	// Output is what the query printed; Generated the configuration it wrote; Plan the
	// plan of importing it.
	Output, Generated, Plan string

	importer *CLI
}

// QueryWhatOthersMade applies made in a CLI of its own, then runs query (the content
// of a .tfquery.hcl file) in a second CLI, generating configuration for what it finds,
// and plans that configuration. Every generated resource must be imported by its
// identity. Each CLI destroys what it made when the test ends.
func (e *Environment) QueryWhatOthersMade(t *testing.T, made, query string) *Query {
	t.Helper()
	SkipUnlessSupported(t, ListResources)

	creator := e.CLI(t, made)
	creator.Run("apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { creator.Run("destroy", "-auto-approve", "-input=false") })

	importer := e.CLI(t, "")
	importer.WriteFile("find.tfquery.hcl", query)

	q := &Query{importer: importer}
	q.Output = importer.Run("query", "-generate-config-out=generated.tf")
	q.Generated = importer.ReadFile("generated.tf")
	assert.Contains(t, q.Generated, "identity = {", "imported by identity")

	q.Plan = importer.Run("plan", "-input=false")

	return q
}

// ImportLeavesNothingToDo applies the import the query planned, and checks that the
// next plan is empty: the generated configuration says what the objects are. The
// importer then manages them and destroys them before the creator, which then finds
// them gone.
func (q *Query) ImportLeavesNothingToDo(t *testing.T) {
	t.Helper()

	q.importer.Run("apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { q.importer.Run("destroy", "-auto-approve", "-input=false") })

	assert.Contains(t, q.importer.Run("plan", "-input=false", "-detailed-exitcode"), "No changes.")
}
