package seams_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
)

// removalBound is how long an apply may take to say that an object it deletes is
// still held: seconds, far below the held object's delete timeout (removalTimeout),
// which a provider waiting for the holder to let go would run out.
const (
	removalBound   = 90 * time.Second
	removalTimeout = "100s"
)

// How a held object leaves the configuration: its resource block taken out, or its
// count brought to 0 while the holder still refers to it through a splat.
type removalForm int

const (
	removedBlock removalForm = iota
	removedByCount
)

// What a case does once the removal is refused: each remedy the held diagnostic gives
// (diagnostic.HeldRemedy), or create_before_destroy applied before the removal, which
// makes Terraform update the holder first, so that the removal is not refused.
type removalRemedy int

const (
	// remedyTarget applies the holder alone (-target), then everything.
	remedyTarget removalRemedy = iota
	// remedyPutBack puts the held object back with the holder's reference left out,
	// applies, then removes the object and applies again.
	remedyPutBack
	// remedyCreateBeforeDestroy is the lifecycle the held object has from the start.
	remedyCreateBeforeDestroy
)

// removalCase is a holder whose attribute names a held object, which the second
// configuration removes together with the reference, in one form, and the remedy the
// case takes. The remedy given where the holder still refers to the removed object
// (-target, when the count took it out) is not one the diagnostic offers there.
type removalCase struct {
	holderType, attribute string
	holding               holding
	holder, held          string // addresses; held's names the instance ([0]) by count
	heldResource          string // held's resource address
	known                 string
	form                  removalForm
	remedy                removalRemedy
}

// removalCases are, for every holding of the world's group, a case of each remedy on
// the form it is meant for: -target on a block taken out (a holder that refers to it
// no longer), the object put back on a count brought to 0 (whose splat the holder
// still refers to), and create_before_destroy on both.
func (w *world) removalCases() []removalCase {
	variants := []struct {
		suffix string
		form   removalForm
		remedy removalRemedy
	}{
		{"_target", removedBlock, remedyTarget},
		{"_cbd", removedBlock, remedyCreateBeforeDestroy},
		{"_count", removedByCount, remedyPutBack},
		{"_count_cbd", removedByCount, remedyCreateBeforeDestroy},
	}

	var cases []removalCase

	for _, typeName := range w.typesOf() {
		f := fixtures[typeName]
		for attribute, holding := range f.holds {
			if !w.reaches(f.references[attribute]) {
				continue
			}

			short := strings.TrimPrefix(typeName, "unikorn_")

			for _, v := range variants {
				c := removalCase{
					holderType: typeName, attribute: attribute, holding: holding,
					holder:       typeName + ".holder_" + attribute + v.suffix,
					heldResource: holding.held + ".held_by_" + short + v.suffix,
					known:        f.references[attribute].known(w), form: v.form, remedy: v.remedy,
				}

				c.held = c.heldResource
				if c.form == removedByCount {
					c.held += "[0]"
				}

				cases = append(cases, c)
			}
		}
	}

	slices.SortFunc(cases, func(a, b removalCase) int { return strings.Compare(a.holder, b.holder) })

	return cases
}

// The configurations of a removal, in the order the test writes them.
type removalPhase int

const (
	// phaseHeld has every held object, each named by its holder beside a known one.
	phaseHeld removalPhase = iota
	// phaseRemoved removes the held objects with the references: blocks taken out,
	// counts brought to 0 under the holders' splats.
	phaseRemoved
	// phasePutBack puts the objects of remedyPutBack back, their holders' references
	// left out.
	phasePutBack
	// phaseReleased removes those objects again.
	phaseReleased
)

// renderRemoval writes the holders and the held objects they name, as phase has them.
func renderRemoval(w *world, cases []removalCase, phase removalPhase) string {
	var b strings.Builder

	for _, c := range cases {
		_, heldName, _ := strings.Cut(c.heldResource, ".")
		_, holderName, _ := strings.Cut(c.holder, ".")

		putBack := c.remedy == remedyPutBack && phase == phasePutBack
		released := c.remedy == remedyPutBack && phase >= phasePutBack

		names := "[" + c.known + ", " + c.heldResource + ".id]"
		if c.form == removedByCount {
			names = "concat([" + c.known + "], " + c.heldResource + "[*].id)"
		}

		if released || (c.form == removedBlock && phase != phaseHeld) {
			names = "[" + c.known + "]"
		}

		if c.form == removedByCount || phase == phaseHeld {
			with := []attribute{{"timeouts", "{\n    delete = \"" + removalTimeout + "\"\n  }"}}
			if c.remedy == remedyCreateBeforeDestroy {
				with = append(with, attribute{"lifecycle", "create_before_destroy = true"})
			}

			if c.form == removedByCount {
				count := "0"
				if phase == phaseHeld || putBack {
					count = "1"
				}

				with = append(with, attribute{"count", count})
			}

			b.WriteString(block(w, c.holding.held, heldName, with) + "\n")
		}

		b.WriteString(block(w, c.holderType, holderName, []attribute{{c.attribute, names}}) + "\n")
	}

	return b.String()
}

var (
	applyAgain = regexp.MustCompile(`(?i)\b(apply|run)\b[^.]*\bagain\b`)
	// heldSummary is the summary of a held delete's error, which names the held kind.
	heldSummary = regexp.MustCompile(`Error: Unable to delete the (.+)`)
)

// TestAccSeamsRemoveHeldWithItsReferences removes objects together with the
// references that hold them, in one apply: a security group from an instance, a
// network from file storage's attachments, a group from a project and a service
// account, a service account from a group; each by taking its block out and by
// bringing its count to 0 under the holder's splat. Where the cloud refuses the delete
// because the holder still names the object (Terraform deletes it before it updates
// the holder), the apply fails in seconds, with an error that names the holder and
// gives the remedies of diagnostic.HeldRemedy; each converges where the text says it
// does (the holder applied alone where it refers to the object no longer, the object
// put back with the reference left out, then removed), the targeted apply fails where
// the text says it would (a splat over a count of 0 still refers to the object), and
// an object given create_before_destroy before its removal goes in one apply. Nothing
// is left behind.
func TestAccSeamsRemoveHeldWithItsReferences(t *testing.T) {
	t.Parallel()

	forEachGroup(t, func(t *testing.T, w *world) {
		cases := w.removalCases()
		if len(cases) == 0 {
			t.Skipf("no type of group %s holds another's objects", w.group)
		}

		// The held objects first, so that the holders' references are known at
		// plan: what is tested here is the removal, not a value unknown at plan.
		cli := w.cli(t, renderRemoval(w, cases, phaseHeld))

		var targets []string
		for _, c := range cases {
			targets = append(targets, "-target="+c.heldResource)
		}

		cli.Run(append([]string{"apply", "-auto-approve", "-input=false"}, targets...)...)
		cli.Run("apply", "-auto-approve", "-input=false")

		resources := state(t, cli)

		w.write(cli, renderRemoval(w, cases, phaseRemoved))

		start := time.Now()
		output, err := cli.Try("apply", "-auto-approve", "-input=false")
		took := time.Since(start)

		if took > removalBound {
			t.Errorf("the apply that removes held objects with their references took %s, more than %s", took.Round(time.Second), removalBound)
		}

		refused := map[removalRemedy][]string{}

		for _, c := range cases {
			heldID, _ := resources[c.held].Values["id"].(string)

			about := diagnosticAbout(output, c.held)
			if about == "" {
				about = diagnosticNaming(output, heldID)
			}

			if about == "" {
				if err != nil && c.holding.refused && c.remedy != remedyCreateBeforeDestroy {
					t.Errorf("%s removed with %s.%s's reference: the apply fails, with no error about %s", c.held, c.holder, c.attribute, c.held)
				}

				continue
			}

			if c.remedy == remedyCreateBeforeDestroy {
				t.Errorf("%s removed with %s.%s's reference, create_before_destroy: the apply fails:\n%s", c.held, c.holder, c.attribute, about)

				continue
			}

			refused[c.remedy] = append(refused[c.remedy], "-target="+c.holder)
			holder := resources[c.holder].Values
			id, _ := holder["id"].(string)
			name, _ := holder["name"].(string)
			text := oneLine(about)

			if !strings.Contains(text, id) && !strings.Contains(text, name) {
				t.Errorf("%s removed with %s.%s's reference: the error names neither the holder's ID %s nor its name %q:\n%s",
					c.held, c.holder, c.attribute, id, name, about)
			}

			kind := heldSummary.FindStringSubmatch(about)
			if kind == nil || !strings.Contains(text, oneLine(diagnostic.HeldRemedy(strings.TrimSpace(kind[1])))) ||
				!applyAgain.MatchString(text) {
				t.Errorf("%s removed with %s.%s's reference: the error does not give the remedies this test drives:\n%s",
					c.held, c.holder, c.attribute, about)
			}
		}

		if err != nil {
			w.remedies(t, cli, cases, refused)
		}

		if output, err := cli.Try("plan", "-input=false", "-detailed-exitcode"); exitCode(err) != 0 {
			t.Errorf("the plan after the removal is not empty (exit %d):\n%s", exitCode(err), output)
		}

		w.requireNothingLost(t, cli)
		w.destroyAll(t, cli, "after the removal")
		w.requireNothingLeaked(t)
	})
}

// remedies drives the remedies of the held diagnostic on the cases whose removal was
// refused (the holders' -target arguments, by the case's remedy): the targeted apply
// that the text warns against where a splat still refers to the object fails again;
// the holders that refer to their objects no longer, applied alone, release them; the
// objects put back with the references left out release theirs; and the applies after
// each converge.
func (w *world) remedies(t *testing.T, cli *acctest.CLI, cases []removalCase, refused map[removalRemedy][]string) {
	t.Helper()

	apply := []string{"apply", "-auto-approve", "-input=false"}

	if holders := refused[remedyPutBack]; len(holders) > 0 {
		if output, err := cli.Try(append(slices.Clone(apply), holders...)...); err == nil {
			t.Errorf("the holders' updates on their own, where they still refer to the removed objects by a splat, "+
				"converge, though the error says they would not:\n%s", output)
		}
	}

	if holders := refused[remedyTarget]; len(holders) > 0 {
		if output, err := cli.Try(append(slices.Clone(apply), holders...)...); err != nil {
			t.Errorf("the holders' updates on their own fail:\n%s", errorsOf(output))
		}
	}

	if len(refused[remedyPutBack]) > 0 {
		w.write(cli, renderRemoval(w, cases, phasePutBack))

		if output, err := cli.Try(apply...); err != nil {
			t.Errorf("the apply with the held objects put back, the references left out, fails:\n%s", errorsOf(output))
		}

		w.write(cli, renderRemoval(w, cases, phaseReleased))
	}

	start := time.Now()
	if output, err := cli.Try(apply...); err != nil {
		t.Errorf("the apply after the remedies does not converge:\n%s", errorsOf(output))
	} else if took := time.Since(start); took > removalBound {
		t.Errorf("the apply after the remedies took %s, more than %s", took.Round(time.Second), removalBound)
	}
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
