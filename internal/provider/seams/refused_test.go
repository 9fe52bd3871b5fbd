package seams_test

import (
	"slices"
	"strings"
	"testing"
)

// replacement is a way to make the plan replace an object.
type replacement string

const (
	// byAttribute changes a replacing attribute in the same plan.
	byAttribute replacement = "attribute"
	// byReplaceFlag plans with -replace=ADDRESS.
	byReplaceFlag replacement = "replace"
	// byTaint taints the object first.
	byTaint replacement = "taint"
)

// refusedCase is one refused change of one type made with one kind of replacement.
type refusedCase struct {
	typeName, address, name, what string
	refusal                       refusal
	how                           replacement
}

func (c refusedCase) block(w *world, refused bool) string {
	with := c.refusal.base
	if refused {
		with = c.refusal.refused
		if c.how == byAttribute {
			with = append(slices.Clone(with), c.refusal.replacing(w)...)
		}
	}

	return block(w, c.typeName, c.name, with)
}

func (w *world) refusedCases() []refusedCase {
	var cases []refusedCase

	for _, typeName := range w.typesOf() {
		for _, r := range fixtures[typeName].refusals {
			for _, how := range []replacement{byAttribute, byReplaceFlag, byTaint} {
				name := strings.TrimPrefix(typeName, "unikorn_") + "_" + strings.ReplaceAll(r.name, " ", "_") + "_by_" + string(how)
				cases = append(cases, refusedCase{
					typeName: typeName, address: typeName + "." + name, name: name, refusal: r, how: how,
					what: typeName + "'s " + r.name + " (refused in place) with a replacement by " + string(how),
				})
			}
		}
	}

	return cases
}

// renderRefused writes the cases' configuration: those in refused with their
// refused change, the others as they were.
func renderRefused(w *world, cases []refusedCase, refused func(refusedCase) bool) string {
	var b strings.Builder

	for _, c := range cases {
		b.WriteString(c.block(w, refused(c)) + "\n")
	}

	return b.String()
}

// TestAccSeamsRefusedChangesGiveWayToReplacement makes every change the provider
// refuses in place (file storage shrink, a listener's port) together with each kind
// of replacement: a replacing attribute's change in the same plan, -replace and
// taint. The plan replaces, the apply succeeds; and destroy, with a refused change
// in the configuration, succeeds and leaves nothing.
func TestAccSeamsRefusedChangesGiveWayToReplacement(t *testing.T) {
	t.Parallel()

	forEachGroup(t, func(t *testing.T, w *world) {
		cases := w.refusedCases()
		if len(cases) == 0 {
			t.Skipf("no type of group %s refuses a change in place", w.group)
		}

		never := func(refusedCase) bool { return false }
		cli := w.cli(t, renderRefused(w, cases, never))
		cli.Run("apply", "-auto-approve", "-input=false")

		// The refused change alone is refused (an error, or a warning that the apply
		// would stop), so that each case below is about a change the provider refuses.
		w.write(cli, renderRefused(w, cases, func(refusedCase) bool { return true }))

		// Terraform folds like warnings into one, so each refusal is looked for once.
		alone, _ := cli.Try("plan", "-input=false")
		for _, c := range cases {
			if c.how == byReplaceFlag && !strings.Contains(oneLine(alone), c.refusal.message) {
				t.Errorf("%s's %s alone: the plan does not refuse it (%q):\n%s", c.typeName, c.refusal.name, c.refusal.message, errorsOf(alone))
			}
		}

		// Each case's refused change and its replacement; a case whose plan fails is
		// reported and goes back to what it was, so that the others are still seen.
		var failed []string

		with := func(c refusedCase) bool { return !slices.Contains(failed, c.address) }

		for _, c := range cases {
			if c.how == byTaint {
				cli.Run("taint", c.address)
			}
		}

		for range len(cases) + 1 {
			w.write(cli, renderRefused(w, cases, with))

			var args []string

			for _, c := range cases {
				if c.how == byReplaceFlag && with(c) {
					args = append(args, "-replace="+c.address)
				}
			}

			changes, output, err := plan(t, cli, args...)
			if err == nil {
				for _, c := range cases {
					if !with(c) {
						continue
					}

					if actions := changes[c.address]; !slices.Equal(actions, []string{"delete", "create"}) && !slices.Equal(actions, []string{"create", "delete"}) {
						t.Errorf("%s: planned %v, want a replacement", c.what, actions)
					}
				}

				if output, err := cli.Try("apply", "-auto-approve", "-input=false", "tfplan"); err != nil {
					t.Errorf("the apply of the replacements fails:\n%s", errorsOf(output))
				}

				break
			}

			named := false

			for _, c := range cases {
				if about := diagnosticAbout(output, c.address); about != "" && with(c) {
					t.Errorf("%s: the plan fails:\n%s", c.what, about)
					failed, named = append(failed, c.address), true
				}
			}

			if !named {
				t.Errorf("the plan of the replacements fails, for no case the suite can name:\n%s", errorsOf(output))

				break
			}
		}

		w.requireNothingLost(t, cli)

		// Destroy with a change refused in place in the configuration: from what each
		// object now is, and with nothing else that would replace it.
		var destroyConfig strings.Builder

		for _, c := range cases {
			with := c.refusal.refused
			if !slices.Contains(failed, c.address) {
				with = c.refusal.again
				if c.how == byAttribute {
					with = append(slices.Clone(with), c.refusal.replacing(w)...)
				}
			}

			destroyConfig.WriteString(block(w, c.typeName, c.name, with) + "\n")
		}

		w.write(cli, destroyConfig.String())
		w.destroyAll(t, cli, "with a change refused in place in the configuration")
		w.requireNothingLeaked(t)
	})
}
