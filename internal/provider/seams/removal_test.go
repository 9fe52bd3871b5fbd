package seams_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// removalBound is how long an apply may take to say that an object it deletes is
// still held: seconds, far below the held object's delete timeout (removalTimeout),
// which a provider waiting for the holder to let go would run out.
const (
	removalBound   = 90 * time.Second
	removalTimeout = "100s"
)

// removalCase is a holder whose attribute names a held object, which the second
// configuration removes together with the reference.
type removalCase struct {
	holderType, attribute string
	holding               holding
	holder, held          string // addresses
	known                 string
	// createBeforeDestroy gives the held object the lifecycle that makes Terraform
	// update the holder before it deletes the held object: the first remedy.
	createBeforeDestroy bool
}

func (w *world) removalCases() []removalCase {
	var cases []removalCase

	for _, typeName := range w.typesOf() {
		f := fixtures[typeName]
		for attribute, holding := range f.holds {
			short := strings.TrimPrefix(typeName, "unikorn_")

			for _, cbd := range []bool{false, true} {
				suffix := ""
				if cbd {
					suffix = "_cbd"
				}

				cases = append(cases, removalCase{
					holderType: typeName, attribute: attribute, holding: holding,
					holder: typeName + ".holder_" + attribute + suffix,
					held:   holding.held + ".held_by_" + short + suffix,
					known:  f.references[attribute].known(w), createBeforeDestroy: cbd,
				})
			}
		}
	}

	slices.SortFunc(cases, func(a, b removalCase) int { return strings.Compare(a.holder, b.holder) })

	return cases
}

// renderRemoval writes the holders and, unless removed, the held objects they name
// beside a known one.
func renderRemoval(w *world, cases []removalCase, removed bool) string {
	var b strings.Builder

	for _, c := range cases {
		_, heldName, _ := strings.Cut(c.held, ".")
		_, holderName, _ := strings.Cut(c.holder, ".")

		names := "[" + c.known + ", " + c.held + ".id]"
		if removed {
			names = "[" + c.known + "]"
		} else {
			with := []attribute{{"timeouts", "{\n    delete = \"" + removalTimeout + "\"\n  }"}}
			if c.createBeforeDestroy {
				with = append(with, attribute{"lifecycle", "create_before_destroy = true"})
			}

			b.WriteString(block(w, c.holding.held, heldName, with) + "\n")
		}

		b.WriteString(block(w, c.holderType, holderName, []attribute{{c.attribute, names}}) + "\n")
	}

	return b.String()
}

var applyAgain = regexp.MustCompile(`(?i)\b(apply|run)\b[^.]*\bagain\b`)

// TestAccSeamsRemoveHeldWithItsReferences removes objects together with the
// references that hold them, in one apply: a security group from an instance, a
// network from file storage's attachments, a group from a project and a service
// account, a service account from a group. Where the cloud refuses the delete
// because the holder still names the object (Terraform deletes it before it updates
// the holder), the apply fails in seconds, with an error that names the holder,
// mentions create_before_destroy and says to apply again; the next apply converges,
// and nothing is left behind.
func TestAccSeamsRemoveHeldWithItsReferences(t *testing.T) {
	t.Parallel()

	forEachGroup(t, func(t *testing.T, w *world) {
		cases := w.removalCases()
		if len(cases) == 0 {
			t.Skipf("no type of group %s holds another's objects", w.group)
		}

		// The held objects first, so that the holders' references are known at
		// plan: what is tested here is the removal, not a value unknown at plan.
		cli := w.cli(t, renderRemoval(w, cases, false))

		var targets []string
		for _, c := range cases {
			targets = append(targets, "-target="+c.held)
		}

		cli.Run(append([]string{"apply", "-auto-approve", "-input=false"}, targets...)...)
		cli.Run("apply", "-auto-approve", "-input=false")

		resources := state(t, cli)

		w.write(cli, renderRemoval(w, cases, true))

		start := time.Now()
		output, err := cli.Try("apply", "-auto-approve", "-input=false")
		took := time.Since(start)

		if took > removalBound {
			t.Errorf("the apply that removes held objects with their references took %s, more than %s", took.Round(time.Second), removalBound)
		}

		var holders []string

		for _, c := range cases {
			heldID, _ := resources[c.held].Values["id"].(string)

			about := diagnosticAbout(output, c.held)
			if about == "" {
				about = diagnosticNaming(output, heldID)
			}

			if about == "" {
				if err != nil && c.holding.refused && !c.createBeforeDestroy {
					t.Errorf("%s removed with %s.%s's reference: the apply fails, with no error about %s", c.held, c.holder, c.attribute, c.held)
				}

				continue
			}

			if c.createBeforeDestroy {
				t.Errorf("%s removed with %s.%s's reference, create_before_destroy: the apply fails:\n%s", c.held, c.holder, c.attribute, about)

				continue
			}

			holders = append(holders, "-target="+c.holder)
			holder := resources[c.holder].Values
			id, _ := holder["id"].(string)
			name, _ := holder["name"].(string)
			text := oneLine(about)

			if !strings.Contains(text, id) && !strings.Contains(text, name) {
				t.Errorf("%s removed with %s.%s's reference: the error names neither the holder's ID %s nor its name %q:\n%s",
					c.held, c.holder, c.attribute, id, name, about)
			}

			if !strings.Contains(text, "create_before_destroy") || !applyAgain.MatchString(text) {
				t.Errorf("%s removed with %s.%s's reference: the error gives neither remedy (create_before_destroy, apply again):\n%s",
					c.held, c.holder, c.attribute, about)
			}
		}

		if err != nil {
			// The other remedy: the holders' updates on their own, then the apply again.
			if len(holders) > 0 {
				if output, err := cli.Try(append([]string{"apply", "-auto-approve", "-input=false"}, holders...)...); err != nil {
					t.Errorf("the holders' updates on their own fail:\n%s", errorsOf(output))
				}
			}

			start := time.Now()
			if output, err := cli.Try("apply", "-auto-approve", "-input=false"); err != nil {
				t.Errorf("the apply after the holders' updates does not converge:\n%s", errorsOf(output))
			} else if took := time.Since(start); took > removalBound {
				t.Errorf("the apply after the holders' updates took %s, more than %s", took.Round(time.Second), removalBound)
			}
		}

		if output, err := cli.Try("plan", "-input=false", "-detailed-exitcode"); exitCode(err) != 0 {
			t.Errorf("the plan after the removal is not empty (exit %d):\n%s", exitCode(err), output)
		}

		w.requireNothingLost(t, cli)
		w.destroyAll(t, cli, "after the removal")
		w.requireNothingLeaked(t)
	})
}

// diagnosticNaming is the first error whose text names id, or "": the error of a
// delete of an object no longer in the configuration has no "with" line.
func diagnosticNaming(output, id string) string {
	if id == "" {
		return ""
	}

	for _, d := range diagnostics(output) {
		if strings.Contains(oneLine(d), id) {
			return d
		}
	}

	return ""
}
