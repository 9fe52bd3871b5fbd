package storage_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// TestAccFileStorage_lifecycle lives file storage's whole life as production treats
// clients (read lag, visibility): created attached to a network, then grown, given a
// snapshot policy and attached to a second network in place, then detached from the
// first, then replaced for another class; imported by ID and by identity; and after
// destroy the sandbox holds no storage or quota charge it made.
func TestAccFileStorage_lifecycle(t *testing.T) {
	env := acctest.New(t, acctest.Production(t))
	env.SkipUnlessSandbox(t)

	before := recordsOf(t, env)

	created := newConfig(t, env)
	created.Networks = true
	created.Attachments = []string{"unikorn_network.first.id"}

	grown := created
	grown.SizeGiB = 20
	grown.Attachments = []string{"unikorn_network.first.id", "unikorn_network.second.id"}
	grown.Policies = map[string]policy{"nightly": {Interval: "daily", TimeOfDay: "02:30Z", Keep: 7}}

	detached := grown
	detached.Attachments = []string{"unikorn_network.second.id"}

	replaced := detached
	replaced.ClassID = sandbox.StorageClassLegacyID

	var firstID string

	network := func(s *terraform.State, name string) string {
		return s.RootModule().Resources["unikorn_network."+name].Primary.ID
	}

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: created.String(),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(storageAddress, plancheck.ResourceActionCreate),
				plancheck.ExpectKnownValue(storageAddress, tfjsonpath.New("project_id"), knownvalue.StringExact(sandbox.ProjectID)),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(storageAddress, tfjsonpath.New("root_squash"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(storageAddress, tfjsonpath.New("default_snapshot_protection"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(storageAddress, tfjsonpath.New("snapshot_policies"), knownvalue.MapSizeExact(0)),
				statecheck.ExpectKnownValue(storageAddress, tfjsonpath.New("usage").AtMapKey("capacity_bytes"), knownvalue.Int64Exact(10<<30)),
				statecheck.ExpectIdentityValueMatchesState(storageAddress, tfjsonpath.New("id")),
			},
			Check: func(s *terraform.State) error {
				firstID = storageID(s)
				first := network(s, "first")
				attributes := s.RootModule().Resources[storageAddress].Primary.Attributes

				// The create waited for the mount, not only for provisioned.
				assert.Equal(t, "10.80.0.16:/volumes/_nogroup/"+firstID, attributes["mounts."+first+".mount_source"])
				assert.Equal(t, "10.80.0.16-10.80.0.19", attributes["mounts."+first+".mount_options.remoteports"])
				assert.Equal(t, 10<<30, chargedBytes(t, env, firstID), "the size is charged in bytes")

				return nil
			},
		},
		resource.TestStep{
			Config: grown.String(),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(storageAddress, plancheck.ResourceActionUpdate),
				// The network that stays attached keeps its mount source through the
				// update, so that nothing built on it changes.
				plancheck.ExpectKnownValue(storageAddress, tfjsonpath.New("size_gib"), knownvalue.Int64Exact(20)),
				mountSourceKnown("unikorn_network.first"),
			}},
			Check: func(s *terraform.State) error {
				require.Equal(t, firstID, storageID(s), "updated in place")

				record := storageRecord(t, env, firstID)
				require.NotNil(t, record)
				assert.Equal(t, int64(20), record.Spec.SizeGiB)
				assert.Equal(t, 20<<30, chargedBytes(t, env, firstID), "the charge follows the size")
				assert.Len(t, *record.Spec.SnapshotPolicies, 1)

				attributes := s.RootModule().Resources[storageAddress].Primary.Attributes
				assert.Equal(t, "10.81.0.8:/volumes/_nogroup/"+firstID, attributes["mounts."+network(s, "second")+".mount_source"],
					"the second network's range starts after its /29 carve-out")
				assert.Equal(t, "provisioned", attributes["snapshot_policy_status.nightly"])

				return nil
			},
		},
		resource.TestStep{
			Config:           detached.String(),
			ConfigPlanChecks: acctest.ExpectAction(storageAddress, plancheck.ResourceActionUpdate),
			Check: func(s *terraform.State) error {
				record := storageRecord(t, env, firstID)
				require.NotNil(t, record)
				require.Len(t, record.Status.Attachments, 1, "the detach was waited for")
				assert.Equal(t, network(s, "second"), record.Status.Attachments[0].NetworkID)

				return nil
			},
		},
		resource.TestStep{
			Config:           replaced.String(),
			ConfigPlanChecks: acctest.ExpectAction(storageAddress, plancheck.ResourceActionDestroyBeforeCreate),
			Check: func(s *terraform.State) error {
				assert.NotEqual(t, firstID, storageID(s), "a new class is new storage")
				assert.Nil(t, storageRecord(t, env, firstID), "the replaced storage is gone")
				assert.Zero(t, chargedBytes(t, env, firstID), "and so is its charge")

				attributes := s.RootModule().Resources[storageAddress].Primary.Attributes
				assert.Equal(t, "10.81.0.8", attributes["mounts."+network(s, "second")+".mount_options.remoteports"],
					"one address: the class's parallelism")

				return nil
			},
		},
		resource.TestStep{ResourceName: storageAddress, ImportState: true, ImportStateVerify: true},
		resource.TestStep{ResourceName: storageAddress, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
	))

	after := recordsOf(t, env)
	assert.ElementsMatch(t, before.storage, after.storage, "no file storage left")
	assert.ElementsMatch(t, before.allocations, after.allocations, "no quota charge left")
}

// mountSourceKnown checks that the plan knows the mount source on a network.
func mountSourceKnown(networkAddress string) plancheck.PlanCheck {
	return knownMount{networkAddress: networkAddress}
}

type knownMount struct{ networkAddress string }

func (k knownMount) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	var networkID string

	for _, change := range req.Plan.ResourceChanges {
		if change.Address == k.networkAddress {
			if after, ok := change.Change.After.(map[string]any); ok {
				networkID, _ = after["id"].(string)
			}
		}
	}

	for _, change := range req.Plan.ResourceChanges {
		if change.Address != storageAddress {
			continue
		}

		after, _ := change.Change.After.(map[string]any)
		mounts, _ := after["mounts"].(map[string]any)
		mount, _ := mounts[networkID].(map[string]any)

		if source, _ := mount["mount_source"].(string); source == "" {
			resp.Error = fmt.Errorf("the plan does not know the mount source on %s (%s): %v", k.networkAddress, networkID, after["mounts"])
		}

		return
	}

	resp.Error = fmt.Errorf("no change of %s is planned", storageAddress)
}

// TestAccFileStorage_planChecks refuses at plan, on the attribute at fault, what
// region would refuse at apply, and creates nothing.
func TestAccFileStorage_planChecks(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	before := recordsOf(t, env)

	step := func(mutate func(*config), message string) resource.TestStep {
		c := newConfig(t, env)
		mutate(&c)

		return resource.TestStep{Config: c.String(), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)` + message)}
	}

	noRange := `
resource "unikorn_network" "bare" {
  name      = "bare"
  region_id = ` + acctest.Quote(env.RegionID) + `
  prefix    = "10.82.0.0/24"

  reservations = {
    prefix_length                   = 25
    provider_reserved_prefix_length = 25
  }
}
`

	resource.ParallelTest(t, env.TestCase(t,
		step(func(c *config) { c.Attachments = []string{acctest.Quote(sandbox.NetworkOtherID)} },
			`Network of another project.*with unikorn_file_storage.this.*attachments.*`+sandbox.OtherProjectID),
		step(func(c *config) { c.Attachments = []string{acctest.Quote("c0000000-0000-4000-8000-0000000000ff")} },
			`Network not found.*attachments`),
		step(func(c *config) { c.ClassID = sandbox.StorageClassRemoteID },
			`Storage class of another region.*storage_class_id.*sim-nfs-standard`),
		// Another organization's class, as a member of this one sees it: a platform
		// administrator may read every organization's.
		step(func(c *config) {
			c.ClassID, c.Provider = sandbox.StorageClassForeignID, env.ProjectUserSettings().Config()
		},
			`Storage class not found.*storage_class_id`),
		step(func(c *config) {
			c.Policies = map[string]policy{"hourly": {Interval: "hourly", TimeOfDay: "01:00Z", Keep: 24}}
		}, `Invalid snapshot schedule.*Policy "hourly": an hourly schedule takes no time of day`),
		step(func(c *config) {
			c.Policies = map[string]policy{"system-default": {Interval: "daily", TimeOfDay: "01:00Z", Keep: 1}}
		}, `Invalid snapshot policy name.*reserved`),
		step(func(c *config) {
			c.Policies = map[string]policy{"weekly": {Interval: "weekly", TimeOfDay: "01:00Z", Keep: 4}}
		}, `Invalid snapshot schedule.*Policy "weekly": a weekly schedule needs a day of the week`),
		step(func(c *config) {
			c.Policies = map[string]policy{}
			for _, name := range []string{"a", "b", "c", "d", "e"} {
				c.Policies[name] = policy{Interval: "hourly", Keep: 1}
			}
		}, `snapshot_policies.*at most 4`),
		step(func(c *config) { c.SizeGiB = 0 }, `size_gib.*at least 1`),
	))

	// A network without a storage range is found out once it exists: its ID is known.
	bare := newConfig(t, env)
	bare.Extra = noRange
	bare.Provider = ""
	cli := env.CLI(t, bare.String())
	cli.Run("apply", "-auto-approve", "-input=false")
	t.Cleanup(func() { cli.Run("destroy", "-auto-approve", "-input=false") })

	attached := bare
	attached.Attachments = []string{"unikorn_network.bare.id"}
	cli.WriteConfig(env.ProviderConfig() + attached.String())
	output, err := cli.Try("plan", "-input=false")
	require.Error(t, err)
	assert.Regexp(t, `(?s)Network without a storage range.*provider's carve-out \(/25\) takes its whole reservation \(/25\)`,
		strings.Join(strings.Fields(output), " "))

	// Destroy plans the configuration too.
	cli.WriteConfig(env.ProviderConfig() + bare.String())

	after := recordsOf(t, env)
	assert.Len(t, after.storage, len(before.storage)+1, "only the storage the CLI applied exists")
}

// TestAccFileStorage_shrinkIsRefused stops a smaller size at plan and changes nothing.
func TestAccFileStorage_shrinkIsRefused(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	created := newConfig(t, env)
	shrunk := created
	shrunk.SizeGiB = 5

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: created.String(),
			Check: func(s *terraform.State) error {
				env.SetFileStorageUsage(t, storageID(s), 7<<30)

				return nil
			},
		},
		resource.TestStep{
			Config: shrunk.String(),
			ExpectError: regexp.MustCompile(`(?s)File storage cannot shrink.*size_gib.*from 10 to 5 GiB.*holds 7516192768 bytes.*` +
				`Keep size_gib at 10 or more`),
		},
		resource.TestStep{
			Config: created.String(), PlanOnly: true,
			Check: func(s *terraform.State) error {
				id := storageID(s)
				assert.Equal(t, 10<<30, chargedBytes(t, env, id), "nothing changed")

				return nil
			},
		},
	))
}

// TestAccFileStorage_observedSettings keeps snapshot policies and default protection
// that the configuration leaves out, whoever set them, and never plans a change for
// what the back end reports of use; `{}` removes the policies.
func TestAccFileStorage_observedSettings(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	set := newConfig(t, env)
	set.Policies = map[string]policy{
		"weekly":  {Interval: "weekly", TimeOfDay: "03:00Z", DayOfWeek: "sunday", Keep: 4},
		"monthly": {Interval: "monthly", TimeOfDay: "04:00Z", DayOfMonth: 1, Keep: 12},
	}
	set.Protection = ptr(false)

	leftOut := newConfig(t, env)

	cleared := newConfig(t, env)
	cleared.Policies = map[string]policy{}

	var id string

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: set.String(),
			Check: func(s *terraform.State) error {
				id = storageID(s)
				// The back end reports data written through a mount.
				env.SetFileStorageUsage(t, id, 3<<30)

				return nil
			},
		},
		resource.TestStep{
			// Left out: kept as they are, and the new use plans nothing.
			Config: leftOut.String(),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectEmptyPlan(),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(storageAddress, tfjsonpath.New("snapshot_policies"), knownvalue.MapSizeExact(2)),
				statecheck.ExpectKnownValue(storageAddress, tfjsonpath.New("default_snapshot_protection"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(storageAddress, tfjsonpath.New("usage").AtMapKey("used_bytes"), knownvalue.Int64Exact(3<<30)),
			},
		},
		resource.TestStep{
			// A description sent leaves the snapshot settings as region has them.
			Config:           func() string { c := leftOut; c.Description = "changed"; return c.String() }(),
			ConfigPlanChecks: acctest.ExpectAction(storageAddress, plancheck.ResourceActionUpdate),
			Check: func(*terraform.State) error {
				record := storageRecord(t, env, id)
				assert.Len(t, *record.Spec.SnapshotPolicies, 2, "omitted policies are kept")
				assert.False(t, *record.Spec.DefaultSnapshotProtectionEnabled, "omitted protection is kept")

				return nil
			},
		},
		resource.TestStep{
			Config:           cleared.String(),
			ConfigPlanChecks: acctest.ExpectAction(storageAddress, plancheck.ResourceActionUpdate),
			Check: func(*terraform.State) error {
				assert.Empty(t, *storageRecord(t, env, id).Spec.SnapshotPolicies, "{} removes them")

				return nil
			},
		},
	))
}

// TestAccFileStorage_quota names the `filestorage` quota when it does not hold the
// size, and creates nothing.
func TestAccFileStorage_quota(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	before := recordsOf(t, env)
	huge := newConfig(t, env)
	huge.SizeGiB = 2048

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config:      huge.String(),
		ExpectError: regexp.MustCompile("(?s)`filestorage` quota does not hold 2048 GiB.*Nothing was\\s+created"),
	}))

	assert.ElementsMatch(t, before.storage, recordsOf(t, env).storage, "nothing was created")
}

// TestAccFileStorage_emptyIsNone takes an empty list of attachments and empty tags for
// none, as region does: written where there were none, they send nothing, and the
// plan after is empty.
func TestAccFileStorage_emptyIsNone(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	none := newConfig(t, env)
	empty := none
	empty.EmptyLists = true

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: none.String(),
			Check: func(*terraform.State) error {
				env.ResetStats(t)

				return nil
			},
		},
		resource.TestStep{
			Config: empty.String(),
			Check: func(*terraform.State) error {
				assert.Zero(t, env.Stats(t).Routes["PUT /api/v2/filestorage/{filestorageID}"], "nothing was sent")

				return nil
			},
		},
	))
}
