package storage_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// attachedTo checks that region's record of the storage is attached to exactly the
// networks named.
func attachedTo(t *testing.T, env *acctest.Environment, networks ...string) resource.TestCheckFunc {
	t.Helper()

	return func(s *terraform.State) error {
		var want []string
		for _, name := range networks {
			want = append(want, s.RootModule().Resources["unikorn_network."+name].Primary.ID)
		}

		record := storageRecord(t, env, storageID(s))
		if record == nil {
			return fmt.Errorf("no record of the storage")
		}

		var got []string
		for _, attachment := range record.Status.Attachments {
			got = append(got, attachment.NetworkID)
		}

		slices.Sort(want)
		slices.Sort(got)

		if !slices.Equal(got, want) {
			return fmt.Errorf("the storage is attached to %v, want %v", got, want)
		}

		return nil
	}
}

// TestAccFileStorage_attachmentUnknownAtPlan attaches, next to a network that exists,
// one made in the same apply, whose ID the plan does not know: on create,
// on update (one added), and when an attached network is replaced (a new prefix);
// then plans a network still to be made, which
// the destroy that ends the test plans too.
func TestAccFileStorage_attachmentUnknownAtPlan(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	before := recordsOf(t, env)

	network := func(name, prefix string) string {
		return fmt.Sprintf(`
resource "unikorn_network" %[1]q {
  name      = "storage-%[1]s"
  region_id = %[2]s
  prefix    = %[3]q
}
`, name, acctest.Quote(env.RegionID), prefix)
	}

	created := newConfig(t, env)
	created.Attachments = []string{"unikorn_network.first.id"}
	created.Extra = network("first", "10.80.0.0/24")

	added := created
	added.Attachments = []string{"unikorn_network.first.id", "unikorn_network.third.id"}
	added.Extra = created.Extra + network("third", "10.82.0.0/24")

	moved := added
	moved.Extra = created.Extra + network("third", "10.83.0.0/24")

	pending := moved
	pending.Attachments = []string{"unikorn_network.first.id", "unikorn_network.third.id", "unikorn_network.fourth.id"}
	pending.Extra = moved.Extra + network("fourth", "10.84.0.0/24")

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			// The network is made in the same apply.
			Config:           created.String(),
			ConfigPlanChecks: acctest.ExpectAction(storageAddress, plancheck.ResourceActionCreate),
			Check:            attachedTo(t, env, "first"),
		},
		resource.TestStep{
			Config: added.String(),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(storageAddress, plancheck.ResourceActionUpdate),
				plancheck.ExpectResourceAction("unikorn_network.third", plancheck.ResourceActionCreate),
			}},
			Check: attachedTo(t, env, "first", "third"),
		},
		resource.TestStep{
			// Planned only: applying it deletes the old network while the storage
			// is still attached to it, which is another matter than the plan's.
			Config: moved.String(), PlanOnly: true, ExpectNonEmptyPlan: true,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(storageAddress, plancheck.ResourceActionUpdate),
				plancheck.ExpectResourceAction("unikorn_network.third", plancheck.ResourceActionDestroyBeforeCreate),
			}},
		},
		resource.TestStep{Config: pending.String(), PlanOnly: true, ExpectNonEmptyPlan: true},
	))

	after := recordsOf(t, env)
	assert.ElementsMatch(t, before.storage, after.storage, "no file storage left")
}

// TestAccFileStorage_scopeUnknownAtPlan takes an organization and a project that are
// not known at plan (here the output of a terraform_data made in the same apply):
// the plan keeps them unknown rather than the provider's, and the storage is made in
// them.
func TestAccFileStorage_scopeUnknownAtPlan(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	c := newConfig(t, env)
	c.Extra = fmt.Sprintf(`
resource "terraform_data" "scope" {
  input = { organization = %s, project = %s }
}
`, acctest.Quote(sandbox.OrganizationID), acctest.Quote(sandbox.ProjectID))
	scoped := strings.Replace(c.String(), "  size_gib", "  organization_id  = terraform_data.scope.output.organization\n"+
		"  project_id       = terraform_data.scope.output.project\n  size_gib", 1)

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config: scoped,
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction(storageAddress, plancheck.ResourceActionCreate),
			plancheck.ExpectUnknownValue(storageAddress, tfjsonpath.New("project_id")),
		}},
		Check: func(s *terraform.State) error {
			record := storageRecord(t, env, storageID(s))
			require.NotNil(t, record)
			assert.Equal(t, sandbox.ProjectID, record.Metadata.ProjectID)
			assert.Equal(t, sandbox.OrganizationID, record.Metadata.OrganizationID)

			return nil
		},
	}))
}

// TestAccFileStorage_shrinkByReplacement refuses a smaller size only where the storage
// would shrink in place. A class change, which replaces the storage, takes a smaller
// size; so do `terraform apply -replace` (as the refusal advises) and a tainted
// storage; the plan of an in-place shrink warns and its apply is refused before
// anything is sent; and a destroy with a shrink in the configuration goes through.
func TestAccFileStorage_shrinkByReplacement(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	before := recordsOf(t, env)

	created := newConfig(t, env)
	created.SizeGiB = 20

	reclassed := created
	reclassed.SizeGiB = 10
	reclassed.ClassID = sandbox.StorageClassLegacyID

	tainted := reclassed
	tainted.SizeGiB = 8

	var id string

	sized := func(size int64, replaced bool) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			now := storageID(s)
			if replaced == (now == id) {
				return fmt.Errorf("storage %s after %s: replaced should be %v", now, id, replaced)
			}

			record := storageRecord(t, env, now)
			require.NotNil(t, record)
			assert.Equal(t, size, record.Spec.SizeGiB)

			if id != now {
				assert.Nil(t, storageRecord(t, env, id), "the replaced storage is gone")
			}

			id = now

			return nil
		}
	}

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{Config: created.String(), Check: sized(20, true)},
		resource.TestStep{
			Config:           reclassed.String(),
			ConfigPlanChecks: acctest.ExpectAction(storageAddress, plancheck.ResourceActionDestroyBeforeCreate),
			Check:            sized(10, true),
		},
		resource.TestStep{
			Config: tainted.String(), Taint: []string{storageAddress},
			ConfigPlanChecks: acctest.ExpectAction(storageAddress, plancheck.ResourceActionDestroyBeforeCreate),
			Check:            sized(8, true),
		},
	))

	after := recordsOf(t, env)
	assert.ElementsMatch(t, before.storage, after.storage, "no file storage left")
	assert.ElementsMatch(t, before.allocations, after.allocations, "no quota charge left")
}

// TestAccFileStorage_shrinkReplaceFlag does what the shrink refusal advises, through
// the CLI: `terraform apply -replace=<address>` at the smaller size makes new storage
// of that size. A plain plan of a shrink warns; its apply is refused and sends
// nothing; a destroy with a shrink in the configuration goes through.
func TestAccFileStorage_shrinkReplaceFlag(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	before := recordsOf(t, env)

	created := newConfig(t, env)
	created.Provider = ""
	cli := env.CLI(t, created.String())
	cli.Run("apply", "-auto-approve", "-input=false")

	firstID := recordsOf(t, env).storage
	require.Len(t, firstID, len(before.storage)+1)

	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }

	shrunk := created
	shrunk.SizeGiB = 5
	cli.WriteConfig(env.ProviderConfig() + shrunk.String())

	output := cli.Run("plan", "-input=false")
	assert.Regexp(t, `Warning: File storage cannot shrink.*from 10 to 5 GiB.*Applying this plan stops at this resource`, flat(output))

	// With a change that replaces the storage in the same plan, nothing is said of it.
	reclassed := shrunk
	reclassed.ClassID = sandbox.StorageClassLegacyID
	cli.WriteConfig(env.ProviderConfig() + reclassed.String())
	output = cli.Run("plan", "-input=false")
	assert.Contains(t, flat(output), "must be replaced")
	assert.NotContains(t, flat(output), "cannot shrink")
	cli.WriteConfig(env.ProviderConfig() + shrunk.String())

	env.ResetStats(t)

	output, err := cli.Try("apply", "-auto-approve", "-input=false")
	require.Error(t, err)
	assert.Regexp(t, `Error: File storage cannot shrink.*from 10 to 5 GiB.*Keep size_gib at 10 or more`, flat(output))
	assert.Zero(t, env.Stats(t).Routes["PUT /api/v2/filestorage/{filestorageID}"], "nothing was sent")

	output = cli.Run("apply", "-auto-approve", "-input=false", "-replace="+storageAddress)
	assert.Contains(t, flat(output), "1 added, 0 changed, 1 destroyed")

	after := recordsOf(t, env)
	require.Len(t, after.storage, len(before.storage)+1)

	for _, fs := range env.FileStorage(t) {
		if !slices.Contains(before.storage, fs.Metadata.ID) {
			assert.NotContains(t, firstID, fs.Metadata.ID, "new storage")
			assert.Equal(t, int64(5), fs.Spec.SizeGiB)
		}
	}

	shrunk.SizeGiB = 2
	cli.WriteConfig(env.ProviderConfig() + shrunk.String())
	cli.Run("destroy", "-auto-approve", "-input=false")

	after = recordsOf(t, env)
	assert.ElementsMatch(t, before.storage, after.storage, "no file storage left")
}
