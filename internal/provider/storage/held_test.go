package storage_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// attachedNetwork is file storage attached to a network made beside it; without the
// network, the storage is attached to nothing. createBeforeDestroy puts the lifecycle
// setting on the network.
func attachedNetwork(env *acctest.Environment, t *testing.T, network, createBeforeDestroy bool) string {
	config := ""
	attachments := "[]"

	if network {
		lifecycle := ""
		if createBeforeDestroy {
			lifecycle = "\n  lifecycle {\n    create_before_destroy = true\n  }\n"
		}

		config = `
resource "unikorn_network" "held" {
  name      = "held"
  region_id = ` + acctest.Quote(env.RegionID) + `
  prefix    = "10.83.0.0/24"` + lifecycle + `
}
`
		attachments = "[unikorn_network.held.id]"
	}

	return config + sharedStorage(env, t, attachments)
}

// sharedStorage is file storage "shared" attached to the networks attachments names.
func sharedStorage(env *acctest.Environment, t *testing.T, attachments string) string {
	return `
resource "unikorn_file_storage" "shared" {
  name             = "shared"
  region_id        = ` + acctest.Quote(env.RegionID) + `
  storage_class_id = ` + acctest.Quote(env.StorageClassID(t)) + `
  size_gib         = 1
  attachments      = ` + attachments + `
}
`
}

func spaced(pattern string) *regexp.Regexp {
	return regexp.MustCompile(strings.ReplaceAll(pattern, " ", `\s+`))
}

// Detaching a network from file storage and deleting the network in one apply:
// Terraform deletes the network before it updates the storage, and region refuses the
// delete while the storage is attached. The apply fails in seconds, naming the
// storage and the remedies; the storage's update applied on its own, the next apply
// deletes the network.
func TestAccFileStorageNetworkRemovedWithItsAttachment(t *testing.T) {
	t.Parallel()

	env := acctest.New(t, acctest.Production(t))
	cli := env.CLI(t, attachedNetwork(env, t, true, false))
	cli.Run("apply", "-auto-approve", "-input=false")

	t.Cleanup(func() { cli.Run("destroy", "-auto-approve", "-input=false") })

	cli.WriteConfig(env.ProviderConfig() + attachedNetwork(env, t, false, false))

	began := time.Now()
	out, err := cli.Try("apply", "-auto-approve", "-input=false")

	require.Error(t, err, out)
	assert.Less(t, time.Since(began), time.Minute, "the refusal is reported at once, not at the delete's timeout")
	assert.Regexp(t, spaced(`Unable to delete the network`), out)
	assert.Regexp(t, spaced(`file storage "shared"`), out)
	assert.Regexp(t, spaced(`create_before_destroy`), out)
	assert.Regexp(t, spaced("then run `terraform apply` again"), out)

	cli.Run("apply", "-auto-approve", "-input=false", "-target=unikorn_file_storage.shared")

	began = time.Now()
	cli.Run("apply", "-auto-approve", "-input=false")
	assert.Less(t, time.Since(began), time.Minute)
	assert.Contains(t, cli.Run("plan", "-input=false"), "No changes")
}

// With create_before_destroy on the network, Terraform detaches it first, and one
// apply removes it.
func TestAccFileStorageNetworkRemovedCreateBeforeDestroy(t *testing.T) {
	t.Parallel()

	env := acctest.New(t, acctest.Production(t))
	cli := env.CLI(t, attachedNetwork(env, t, true, true))
	cli.Run("apply", "-auto-approve", "-input=false")

	t.Cleanup(func() { cli.Run("destroy", "-auto-approve", "-input=false") })

	cli.WriteConfig(env.ProviderConfig() + attachedNetwork(env, t, false, false))
	cli.Run("apply", "-auto-approve", "-input=false")
	assert.Contains(t, cli.Run("plan", "-input=false"), "No changes")
}

// networkByCount is held's network made by count (1 or 0), and file storage attached
// to it by a splat of that resource, or, with released, to nothing.
func networkByCount(env *acctest.Environment, t *testing.T, count int, released bool) string {
	attachments := "unikorn_network.held[*].id"
	if released {
		attachments = "[]"
	}

	return `
resource "unikorn_network" "held" {
  count     = ` + strconv.Itoa(count) + `
  name      = "held"
  region_id = ` + acctest.Quote(env.RegionID) + `
  prefix    = "10.83.0.0/24"
}
` + sharedStorage(env, t, attachments)
}

// A project user on the compute path removes a network by count while the file
// storage it made is attached to it through a splat. Region refuses the network's
// delete; the error names the storage, which the token can see, and says that it may
// not list region's servers, so the answer may be partial. The remedy it gives first,
// followed as written, converges.
func TestAccFileStorageNetworkRemovedByCountOnTheComputePath(t *testing.T) {
	t.Parallel()

	env := acctest.New(t, acctest.WithBackend(acctest.ComputeBackend), acctest.Production(t))
	cli := env.CLI(t, networkByCount(env, t, 1, false))
	cli.Run("apply", "-auto-approve", "-input=false")

	t.Cleanup(func() { cli.Run("destroy", "-auto-approve", "-input=false") })

	cli.WriteConfig(env.ProviderConfig() + networkByCount(env, t, 0, false))

	out, err := cli.Try("apply", "-auto-approve", "-input=false")
	require.Error(t, err, out)
	assert.Regexp(t, spaced(`Unable to delete the network`), out)
	assert.Regexp(t, spaced(`What uses it: file storage "shared" \([0-9a-f-]{36}\) \(and perhaps more: the token may not list region's servers\)`), out)
	assert.NotRegexp(t, spaced(`none that the token can see`), out)

	switch first := firstRemedy(out); {
	case strings.Contains(first, "-target="):
		if again, err := cli.Try("apply", "-auto-approve", "-input=false", "-target=unikorn_file_storage.shared"); err != nil {
			t.Errorf("the first remedy given, %q, does not converge: the storage applied alone fails:\n%s", first, again)
		}
	case strings.Contains(first, "put the network's resource back"):
		cli.WriteConfig(env.ProviderConfig() + networkByCount(env, t, 1, true))
		cli.Run("apply", "-auto-approve", "-input=false")
		cli.WriteConfig(env.ProviderConfig() + networkByCount(env, t, 0, true))
	default:
		t.Fatalf("the first remedy given is none this test knows how to follow: %q", first)
	}

	cli.Run("apply", "-auto-approve", "-input=false")
	assert.Contains(t, cli.Run("plan", "-input=false"), "No changes")
}

// firstRemedy is the first of the ways out that a held delete's error lists, one line
// each ("  - ..."), as the CLI printed it.
func firstRemedy(output string) string {
	_, remedies, _ := strings.Cut(output, "To finish")

	for line := range strings.Lines(remedies) {
		if trimmed := strings.TrimLeft(line, "│ "); strings.HasPrefix(trimmed, "- ") {
			return strings.TrimSpace(trimmed)
		}
	}

	return ""
}
