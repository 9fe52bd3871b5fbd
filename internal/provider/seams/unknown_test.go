package seams_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// seamCase is one object of a configuration under test, with what it needs: the
// suite drops a case whose plan fails (after reporting it), so that one fault does
// not hide the others'.
type seamCase struct {
	// address is the object's, what says what it tries, and blocks make it.
	address, what, blocks string
	// attribute is the reference under test, and data the address of the
	// terraform_data whose output it is given.
	attribute, data string
}

// render writes the cases' configuration: the support every case shares, then each
// case not dropped.
func render(support string, cases []seamCase, dropped []string) string {
	var b strings.Builder

	b.WriteString("variable \"round\" {\n  type    = string\n  default = \"1\"\n}\n\n")
	b.WriteString(support)

	for _, c := range cases {
		if !slices.Contains(dropped, c.address) {
			b.WriteString("\n" + c.blocks)
		}
	}

	return b.String()
}

// unknownCases are, for every reference attribute of every type of the world's
// group, an object whose attribute is unknown at plan: alone, and for a collection
// also as one element beside a known one. The unknown value is a terraform_data's
// output, unknown whenever the round changes (and on create).
func (w *world) unknownCases(t *testing.T) (string, []seamCase) {
	t.Helper()

	var cases []seamCase

	support := w.fixtureSupport()

	served := schema(t)

	for _, typeName := range w.typesOf() {
		f := fixtures[typeName]

		short := strings.TrimPrefix(typeName, "unikorn_")

		for _, ref := range served.references(typeName) {
			r, ok := f.references[ref.name]
			if !ok || !w.reaches(r) {
				continue // TestSeamsCoverTheSchema names one missing
			}

			forms := []string{"alone"}
			if ref.collection {
				forms = append(forms, "beside_known")
			}

			// One terraform_data for the reference, unless each case needs an object
			// of its own; every case's is shared support: a dropped case leaves it.
			unknown := "u_" + short + "_" + ref.name
			data := func(name, target string) string {
				support = append(support, fmt.Sprintf("resource \"terraform_data\" %q {\n  input            = %s\n  triggers_replace = [var.round]\n}\n",
					name, target))

				return "terraform_data." + name
			}

			shared := ""
			if r.each == nil {
				if r.support != nil {
					support = append(support, r.support(w))
				}

				shared = data(unknown, r.target(w))
			}

			for _, form := range forms {
				name := short + "_" + ref.name + "_" + form

				source := shared
				if r.each != nil {
					target, targetSupport := r.each(w, "seam_target_"+name)
					support = append(support, targetSupport)
					source = data(unknown+"_"+form, target)
				}

				value := source + ".output"
				switch {
				case form == "beside_known":
					value = "[" + r.known(w) + ", " + value + "]"
				case ref.collection:
					value = "[" + value + "]"
				}

				cases = append(cases, seamCase{
					address:   typeName + "." + name,
					what:      fmt.Sprintf("%s.%s unknown at plan, %s", typeName, ref.name, strings.ReplaceAll(form, "_", " ")),
					blocks:    block(w, typeName, name, []attribute{{ref.name, value}}),
					attribute: ref.name, data: source,
				})
			}
		}
	}

	return supports(support...), cases
}

// planCases plans the cases, dropping each case the plan fails for (and reporting
// it, with the error) until the plan of the rest succeeds. It returns the plan's
// changes and the cases dropped.
func (w *world) planCases(t *testing.T, cli *acctest.CLI, step, support string, cases []seamCase, dropped []string, args ...string) (map[string][]string, []string) {
	t.Helper()

	for range len(cases) + 1 {
		w.write(cli, render(support, cases, dropped))

		changes, output, err := plan(t, cli, args...)
		if err == nil {
			return changes, dropped
		}

		failed := false

		for _, c := range cases {
			if slices.Contains(dropped, c.address) {
				continue
			}

			if about := diagnosticAbout(output, c.address); about != "" {
				t.Errorf("%s: %s: the plan fails:\n%s", step, c.what, about)
				dropped, failed = append(dropped, c.address), true
			}
		}

		if !failed {
			t.Errorf("%s: the plan fails, for no case the suite can name:\n%s", step, output)

			return nil, dropped
		}
	}

	return nil, dropped
}

// destroyAll destroys what the CLI's state holds; with config, destroy plans it
// first, and when that fails (reported), an empty configuration removes it all.
func (w *world) destroyAll(t *testing.T, cli *acctest.CLI, what string, args ...string) {
	t.Helper()

	output, err := cli.Try(append([]string{"destroy", "-auto-approve", "-input=false"}, args...)...)
	if err != nil {
		t.Errorf("%s: terraform destroy fails:\n%s", what, errorsOf(output))

		w.write(cli, "")
		cli.Run("apply", "-auto-approve", "-input=false")
	}
}

// TestAccSeamsUnknownReferences gives every reference attribute of every type a
// value unknown at plan, alone and, for a collection, beside a known ID, on create
// and on update: each plans and applies, the state holds the value, the next plan
// is empty, and destroy (with the values unknown again) plans and leaves nothing.
func TestAccSeamsUnknownReferences(t *testing.T) {
	t.Parallel()

	forEachGroup(t, func(t *testing.T, w *world) {
		support, cases := w.unknownCases(t)
		cli := w.cli(t, render(support, nil, nil))

		var dropped []string

		for round, action := range []string{"create", "update"} {
			vars := fmt.Sprintf("-var=round=%d", round+1)

			var changes map[string][]string

			changes, dropped = w.planCases(t, cli, "on "+action, support, cases, dropped, vars)
			if changes == nil {
				break
			}

			for _, c := range cases {
				if slices.Contains(dropped, c.address) {
					continue
				}

				actions := changes[c.address]
				want := [][]string{{"create"}}
				if action == "update" {
					want = [][]string{{"update"}, {"delete", "create"}, {"create", "delete"}}
				}

				if !slices.ContainsFunc(want, func(a []string) bool { return slices.Equal(a, actions) }) {
					t.Errorf("on %s: %s: planned %v, want one of %v", action, c.what, actions, want)
				}
			}

			if output, err := cli.Try("apply", "-auto-approve", "-input=false", "tfplan"); err != nil {
				t.Errorf("on %s: the apply fails:\n%s", action, errorsOf(output))

				break
			}

			w.requireReferencesHeld(t, cli, cases, dropped)
			w.requireNothingLost(t, cli)

			if output, err := cli.Try("plan", "-input=false", "-detailed-exitcode", vars); exitCode(err) != 0 {
				t.Errorf("on %s: the plan after the apply is not empty (exit %d):\n%s", action, exitCode(err), output)
			}
		}

		// Destroy plans first, with the values unknown again, every case configured.
		w.write(cli, render(support, cases, nil))
		w.destroyAll(t, cli, "with the references unknown", "-var=round=3")
		w.requireNothingLeaked(t)
	})
}

// requireReferencesHeld checks that each case's reference holds the value its
// terraform_data carried.
func (w *world) requireReferencesHeld(t *testing.T, cli *acctest.CLI, cases []seamCase, dropped []string) {
	t.Helper()

	resources := state(t, cli)

	for _, c := range cases {
		if slices.Contains(dropped, c.address) {
			continue
		}

		r, ok := resources[c.address]
		if !ok {
			t.Errorf("%s: %s is not in state", c.what, c.address)

			continue
		}

		attribute := c.attribute

		data, ok := resources[c.data]
		require.True(t, ok, "the terraform_data of %s", c.what)

		want, _ := data.Values["output"].(string)
		got := r.Values[attribute]

		switch got := got.(type) {
		case string:
			if got != want {
				t.Errorf("%s: %s is %q in state, want %q", c.what, attribute, got, want)
			}
		case []any:
			if !slices.Contains(got, any(want)) {
				t.Errorf("%s: %s is %v in state, want it to hold %q", c.what, attribute, got, want)
			}
		default:
			t.Errorf("%s: %s is %v in state, want %q", c.what, attribute, got, want)
		}
	}
}
