package instance_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// heldGroups is an instance in a security group made beside it, and, unless left
// out, a second group the instance is in too.
func heldGroups(env *acctest.Environment, second, createBeforeDestroy bool) string {
	return groupsOnly(env, second, createBeforeDestroy) + instanceBlock(baseAttrs(env).with("security_group_ids", groupIDs(second)))
}

func groupIDs(second bool) string {
	if second {
		return "[unikorn_security_group.base.id, unikorn_security_group.extra.id]"
	}

	return "[unikorn_security_group.base.id]"
}

// groupsOnly is the groups of heldGroups alone: made first, so that their IDs are
// known when the instance is planned.
func groupsOnly(env *acctest.Environment, second, createBeforeDestroy bool) string {
	config := `
resource "unikorn_security_group" "base" {
  name       = "base"
  network_id = ` + acctest.Quote(env.NetworkID) + `
  rules      = [{ direction = "ingress", protocol = "tcp", port = 22 }]
}
`
	if second {
		lifecycle := ""
		if createBeforeDestroy {
			lifecycle = "\n  lifecycle {\n    create_before_destroy = true\n  }\n"
		}

		config += `
resource "unikorn_security_group" "extra" {
  name       = "extra"
  network_id = ` + acctest.Quote(env.NetworkID) + `
  rules      = [{ direction = "ingress", protocol = "tcp", port = 443 }]` + lifecycle + `
}
`
	}

	return config
}

// inTwoGroups is a CLI that has applied heldGroups with the second group, the groups
// first, and destroys it all when the test ends.
func inTwoGroups(t *testing.T, env *acctest.Environment, createBeforeDestroy bool) *acctest.CLI {
	t.Helper()

	cli := env.CLI(t, groupsOnly(env, true, createBeforeDestroy))
	cli.Run("apply", "-auto-approve", "-input=false")
	cli.WriteConfig(env.ProviderConfig() + heldGroups(env, true, createBeforeDestroy))
	cli.Run("apply", "-auto-approve", "-input=false")

	t.Cleanup(func() { cli.Run("destroy", "-auto-approve", "-input=false") })

	return cli
}

// Removing a security group from an instance and deleting the group in one apply:
// Terraform deletes the group before it updates the instance, and region refuses the
// delete while the instance's server is in it. The apply fails in seconds, naming the
// instance and the remedies; once the instance's update is applied on its own, the
// next apply deletes the group, in seconds.
func TestAccInstanceSecurityGroupRemovedWithItsReference(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		cli := inTwoGroups(t, env, false)
		cli.WriteConfig(env.ProviderConfig() + heldGroups(env, false, false))

		began := time.Now()
		out, err := cli.Try("apply", "-auto-approve", "-input=false")
		took := time.Since(began)

		require.Error(t, err, out)
		assert.Less(t, took, time.Minute, "the refusal is reported at once, not at the delete's timeout")
		assert.Contains(t, out, "unikorn_security_group.extra")
		assert.Regexp(t, wrapped(`instance "web"`), out)
		assert.Regexp(t, wrapped(`create_before_destroy`), out)
		assert.Regexp(t, wrapped("`terraform apply -target=ADDRESS`"), out)
		assert.Regexp(t, wrapped("then run `terraform apply` again"), out)

		// The same apply again meets the same order: Terraform updates the instance only
		// after the delete. Applying the instance's update on its own releases the group.
		again, err := cli.Try("apply", "-auto-approve", "-input=false")
		require.Error(t, err, again)
		assert.Contains(t, again, "Unable to delete the security group")

		cli.Run("apply", "-auto-approve", "-input=false", "-target=unikorn_compute_instance.test")

		began = time.Now()
		cli.Run("apply", "-auto-approve", "-input=false")
		assert.Less(t, time.Since(began), time.Minute)
		assert.Contains(t, cli.Run("plan", "-input=false", "-detailed-exitcode"), "No changes")
	}, acctest.Production(t))
}

// With create_before_destroy on the group, Terraform updates the instance first, and
// one apply removes the group.
func TestAccInstanceSecurityGroupRemovedCreateBeforeDestroy(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		cli := inTwoGroups(t, env, true)
		cli.WriteConfig(env.ProviderConfig() + heldGroups(env, false, false))
		cli.Run("apply", "-auto-approve", "-input=false")
		assert.Contains(t, cli.Run("plan", "-input=false", "-detailed-exitcode"), "No changes")
	}, acctest.Production(t))
}
