package instance_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// A project user's token on the region back end fails at once, saying that region's
// server API needs service rights and that the compute back end fits, and leaves
// nothing behind: no server, no allocation.
func TestAccInstanceRegionWithAUsersTokenSaysWhy(t *testing.T) {
	t.Parallel()

	env := acctest.New(t, acctest.WithBackend(acctest.RegionBackend))
	env.SkipUnlessSandbox(t)

	user := env.Settings
	user.Token = sandbox.DefaultToken

	cli := env.CLI(t, instanceBlock(baseAttrs(env)))
	cli.WriteConfig(user.Config() + instanceBlock(baseAttrs(env)))

	output, err := cli.Try("apply", "-auto-approve", "-input=false")
	require.Error(t, err, "a user's token cannot create through region:\n%s", output)

	flat := strings.Join(strings.Fields(output), " ")
	assert.Contains(t, flat, "service")
	assert.Contains(t, flat, `instance_api = "compute"`)
	assert.Empty(t, instanceAllocations(t, env), "nothing was charged")
	assert.Zero(t, writes(env.Stats(t)), "nothing was written")
}
