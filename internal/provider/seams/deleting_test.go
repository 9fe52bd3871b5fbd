package seams_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// TestAccSeamsDeletingIsNoHealthyObject deletes one object of every type behind
// Terraform's back while the cloud takes an hour to finish deletes: an object whose
// delete was accepted but is not done (deletionTime set, deprovisioning), where
// Unikorn has that state, and an object gone at once where it has not. Either way
// the plan is not "No changes" for it. One being deleted is replaced, with a warning
// that names it and says, in the fixture's words, that it is being deleted and what
// holds its deletion; one gone is created anew, replaced, or its plan fails with an
// error that says it "is being deleted".
func TestAccSeamsDeletingIsNoHealthyObject(t *testing.T) {
	t.Parallel()

	forEachGroup(t, func(t *testing.T, w *world) {
		var blocks []string

		for _, typeName := range w.typesOf() {
			blocks = append(blocks, block(w, typeName, "deleting", nil))
		}

		cli := w.cli(t, supports(w.fixtureSupport()...)+"\n"+strings.Join(blocks, "\n"))
		cli.Run("apply", "-auto-approve", "-input=false")
		resources := state(t, cli)

		// Older than the read lag the provider allows for, so that a 404 is an answer.
		time.Sleep(cloud.DefaultReadLag + cloud.CreationMargin)
		w.env.UpdateSettings(t, sandbox.Settings{DeprovisionDelay: "1h"})

		ctx := context.Background()

		for _, typeName := range w.typesOf() {
			id, _ := resources[typeName+".deleting"].Values["id"].(string)
			require.NoError(t, fixtures[typeName].remove(ctx, w, id), "deleting %s behind Terraform's back", typeName)
		}

		held := map[string]bool{}
		for _, object := range w.env.LeftBehind(t) {
			held[object.ID] = true
		}

		changes, output, err := plan(t, cli)

		for _, typeName := range w.typesOf() {
			address := typeName + ".deleting"
			id, _ := resources[address].Values["id"].(string)
			state := "gone at once"

			if held[id] {
				state = "being deleted"
			}

			actions := changes[address]
			if err != nil {
				if about := diagnosticAbout(output, address); about != "" {
					if held[id] {
						t.Errorf("%s (%s): the plan fails, rather than replace it:\n%s", address, state, about)
					} else if !strings.Contains(oneLine(about), "is being deleted") {
						t.Errorf("%s (%s): the plan fails, but not saying it is being deleted:\n%s", address, state, about)
					}

					continue
				}

				// The plan failed for another: this one's own plan says what it is.
				actions, output, err = targeted(t, cli, address)
				if err != nil {
					t.Errorf("%s (%s): the plan fails:\n%s", address, state, errorsOf(output))

					continue
				}
			}

			if !slices.Equal(actions, []string{"create"}) && !slices.Equal(actions, []string{"delete", "create"}) &&
				!slices.Equal(actions, []string{"create", "delete"}) {
				t.Errorf("%s (%s behind Terraform's back): planned %v, want it made anew or an error that it is being deleted",
					address, state, actions)
			}

			if held[id] {
				requireReplacedAsDeleting(t, typeName, address, id, actions, output)
			}
		}

		if err == nil && strings.Contains(output, "No changes") {
			t.Errorf("the plan of objects deleted behind Terraform's back says No changes:\n%s", output)
		}

		// No destroy: the deletes already under way finish in an hour (a changed
		// setting applies to deletes begun afterwards), and the sandbox goes with the
		// test. What the plan did not change is the check that nothing was lost.
	})
}

// targeted is the plan of address alone: its actions, or the output of the failure.
func targeted(t *testing.T, cli interface {
	Try(args ...string) (string, error)
	Run(args ...string) string
}, address string,
) ([]string, string, error) {
	t.Helper()

	output, err := cli.Try("plan", "-input=false", "-out=tfplan", "-target="+address)
	if err != nil {
		return nil, output, err
	}

	changes := planChanges(t, cli.Run("show", "-json", "tfplan"))

	return changes[address], output, nil
}

// requireReplacedAsDeleting checks that the plan replaces address, an object of
// typeName the cloud is deleting (the ID id), and warns that it is being deleted, as
// the type's fixture words it: its own delete may be asked again and waits until it
// is gone, and the configuration asks for an object that exists.
func requireReplacedAsDeleting(t *testing.T, typeName, address, id string, actions []string, output string) {
	t.Helper()

	if !slices.Equal(actions, []string{"delete", "create"}) && !slices.Equal(actions, []string{"create", "delete"}) {
		t.Errorf("%s (being deleted): planned %v, want it replaced", address, actions)
	}

	says := fixtures[typeName].deleting
	if len(says) == 0 {
		t.Errorf("%s is being deleted, but the seams suite's fixture says nothing of the plan's warning (deleting)", typeName)

		return
	}

	warning := oneLine(warningAbout(output, address))
	for _, phrase := range append(slices.Clone(says), id) {
		if !strings.Contains(warning, phrase) {
			t.Errorf("%s (being deleted): the plan's warning about it does not say %q:\n%s", address, phrase, firstLines(warning, output))
		}
	}
}
