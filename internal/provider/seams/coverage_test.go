// Package seams_test holds the seams suite: acceptance tests, through the real CLI,
// of where resources meet (imports of what does not exist, values unknown at plan,
// refused changes beside replacements, removals of what others hold, objects being
// deleted), for every resource type the provider's schema lists. The table in
// fixtures_test.go says how to build each type; TestSeamsCoverTheSchema fails, naming
// it, for a type or an attribute the table lacks.
package seams_test

import (
	"slices"
	"testing"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// identityValues are the identity attributes the suite can fill for an import by
// identity, from the world.
var identityValues = map[string]func(w *world, id string) string{
	"id":              func(_ *world, id string) string { return id },
	"organization_id": func(w *world, _ string) string { return w.org },
	"project_id":      func(w *world, _ string) string { return w.project },
}

// TestSeamsCoverTheSchema needs no CLI: it holds the table to the schema, so that a
// type, a reference attribute or an identity attribute added later is covered by
// every case or named here.
func TestSeamsCoverTheSchema(t *testing.T) {
	t.Parallel()

	served := schema(t)

	objects := acctest.ObjectTypes()

	for _, typeName := range served.typeNames() {
		if !slices.Contains(objects, typeName) {
			t.Errorf("resource type %s has no object in internal/acctest/objects.go: add how to build one", typeName)
		}

		f, ok := fixtures[typeName]
		if !ok {
			t.Errorf("resource type %s has no fixture in the seams suite (internal/provider/seams/fixtures_test.go): "+
				"add how to build one, import it, and what its references stand for", typeName)

			continue
		}

		if !slices.Contains(groups, f.group) {
			t.Errorf("%s: the fixture's group %q is none the suite runs", typeName, f.group)
		}

		if f.remove == nil {
			t.Errorf("%s: the fixture cannot delete an object behind Terraform's back (remove)", typeName)
		}

		for attribute, holding := range f.holds {
			if _, ok := f.references[attribute]; !ok {
				t.Errorf("%s: the fixture holds objects by %s, which is no reference attribute of its", typeName, attribute)
			}

			if _, ok := fixtures[holding.held]; !ok {
				t.Errorf("%s.%s holds %s, which has no fixture", typeName, attribute, holding.held)
			}
		}

		refs := served.references(typeName)
		for _, ref := range refs {
			r, ok := f.references[ref.name]
			switch {
			case !ok:
				t.Errorf("%s.%s names other objects, but the seams suite has no fixture for its value unknown at plan", typeName, ref.name)
			case ref.collection && r.known == nil:
				t.Errorf("%s.%s is a collection of IDs, but its fixture has no known ID to give beside the unknown one", typeName, ref.name)
			}
		}

		for name := range f.references {
			if !slices.ContainsFunc(refs, func(r reference) bool { return r.name == name }) {
				t.Errorf("%s: the seams suite has a reference fixture for %s, which the schema does not list as a reference", typeName, name)
			}
		}

		if served.identities[typeName] == nil {
			t.Errorf("%s has no resource identity: an import by identity cannot be tested", typeName)
		}

		for _, attribute := range served.identityAttributes(typeName) {
			if _, ok := identityValues[attribute]; !ok {
				t.Errorf("%s's identity has attribute %s, which the seams suite cannot fill (identityValues)", typeName, attribute)
			}
		}
	}

	for typeName := range fixtures {
		if _, ok := served.resources[typeName]; !ok {
			t.Errorf("the seams suite has a fixture for %s, a resource type the provider does not serve", typeName)
		}
	}

	for _, typeName := range objects {
		if _, ok := served.resources[typeName]; !ok {
			t.Errorf("internal/acctest/objects.go builds %s, a resource type the provider does not serve", typeName)
		}
	}
}
