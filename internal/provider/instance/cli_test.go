package instance_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// resourceOnly is config without the provider block, which the CLI adds itself.
func resourceOnly(env *acctest.Environment, a attrs) string {
	return strings.TrimPrefix(config(env, a), env.ProviderConfig())
}

// A plan that replaces the instance says, in the terminal, what will be lost.
func TestAccInstancePlanWarnsAboutReplacement(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		cli := env.CLI(t, resourceOnly(env, baseAttrs(env)))
		cli.Run("apply", "-auto-approve", "-input=false")

		t.Cleanup(func() { cli.Run("destroy", "-auto-approve", "-input=false") })

		cli.WriteConfig(env.ProviderConfig() + resourceOnly(env, baseAttrs(env).with("flavor_id", acctest.Quote(sandbox.FlavorGPUID))))
		plan := cli.Run("plan", "-input=false")

		assert.Contains(t, plan, "must be replaced")
		assert.Contains(t, plan, "Warning: Instance will be replaced")
		assert.Regexp(t, wrapped(`Changing flavor_id replaces instance "web"`), plan)
		assert.Regexp(t, wrapped(`its server, its disk and its IP addresses are lost`), plan)

		cli.WriteConfig(env.ProviderConfig() + resourceOnly(env, baseAttrs(env).with("description", `"in place"`)))
		plan = cli.Run("plan", "-input=false")

		assert.Contains(t, plan, "will be updated in-place")
		assert.NotContains(t, plan, "Instance will be replaced", "an in-place update carries no warning")
	}, acctest.Production(t))
}

// Destroying an instance that is already gone succeeds and leaves its quota free.
func TestAccInstanceDestroyWhenTheInstanceIsAlreadyGone(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		cli := env.CLI(t, resourceOnly(env, baseAttrs(env)))
		cli.Run("apply", "-auto-approve", "-input=false")
		require.Len(t, instanceAllocations(t, env), 1)

		deleteBehindTerraform(t, env, "web")

		// Without a refresh, Terraform asks the provider to delete what it remembers.
		cli.Run("destroy", "-auto-approve", "-input=false", "-refresh=false")

		assert.Empty(t, env.InstanceServers(t, instanceID(t, "web")))
		assert.Empty(t, instanceAllocations(t, env), "the quota is released")
	}, acctest.Production(t))
}
