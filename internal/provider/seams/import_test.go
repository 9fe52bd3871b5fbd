package seams_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
)

// missingID is an ID no object has: a fresh UUID, letter-first as Unikorn's derived
// IDs are.
func missingID() string {
	return "f" + uuid.NewString()[1:]
}

// importTarget is one import of a missing object: the address, the ID in one of the
// forms the type takes, and the identity an import block gives for it. The ID's
// first form has the whole identity; its other forms, only the attributes an import
// must give, where that is less than the whole (the provider fills the rest from its
// own settings), and no identity where it is not.
type importTarget struct {
	typeName, address, id string
	identity              map[string]string
}

// importTargets are, for every type of the world's group and every form of its
// import ID, an address and a missing ID, and the configuration that declares them.
func (w *world) importTargets(t *testing.T) ([]importTarget, string) {
	t.Helper()

	var (
		targets []importTarget
		blocks  []string
	)

	served := schema(t)

	for _, typeName := range w.typesOf() {
		f := fixtures[typeName]

		id := missingID()

		whole, required := served.identityAttributes(typeName), served.requiredIdentityAttributes(typeName)

		for i, importID := range f.importIDs(w, id) {
			name := fmt.Sprintf("missing_%d", i)

			var identity map[string]string

			switch {
			case i == 0:
				identity = identityOf(w, whole, id)
			case len(required) < len(whole):
				identity = identityOf(w, required, id)
			}

			targets = append(targets, importTarget{typeName: typeName, address: typeName + "." + name, id: importID, identity: identity})
			blocks = append(blocks, block(w, typeName, name, nil))
		}
	}

	return targets, supports(w.fixtureSupport()...) + "\n" + strings.Join(blocks, "\n")
}

// identityOf is the identity of the missing object id by the attributes given.
func identityOf(w *world, attributes []string, id string) map[string]string {
	identity := map[string]string{}

	for _, attribute := range attributes {
		if fill, ok := identityValues[attribute]; ok {
			identity[attribute] = fill(w, id)
		}
	}

	return identity
}

const cannotImport = "Cannot import non-existent remote object"

// providerFaults are what a provider's own fault says: the framework's identity
// that a read or an import left unset, and the "should be reported" of an error
// that Terraform or the framework blames on the provider.
var providerFaults = []string{"Missing Resource Identity", "should be reported"}

// requireCannotImport checks that output says, for address, Terraform's own
// "Cannot import non-existent remote object", and no provider-internal error.
func requireCannotImport(t *testing.T, how, address, output string) {
	t.Helper()

	about := diagnosticAbout(output, address)
	if !strings.Contains(about, cannotImport) || slices.ContainsFunc(providerFaults, func(fault string) bool { return strings.Contains(about, fault) }) {
		t.Errorf("%s of a missing %s: want Terraform's \"%s\" naming it, got:\n%s",
			how, address, cannotImport, firstLines(about, output))
	}
}

// requireOnlyCannotImport checks that output, of imports of count missing objects,
// says Terraform's "Cannot import non-existent remote object" once for each, and
// nowhere a provider's fault: an error beside the right one, naming no address, is
// one too many.
func requireOnlyCannotImport(t *testing.T, how, output string, count int) {
	t.Helper()

	if got := strings.Count(output, cannotImport); got != count {
		t.Errorf("%s of %d missing objects says %q %d times:\n%s", how, count, cannotImport, got, errorsOf(output))
	}

	for _, fault := range providerFaults {
		if strings.Contains(output, fault) {
			t.Errorf("%s of missing objects says %q, a provider's fault:\n%s", how, fault, errorsOf(output))
		}
	}
}

// firstLines is the diagnostic about the address, or failing that the whole output.
func firstLines(about, output string) string {
	if about != "" {
		return about
	}

	return output
}

// TestAccSeamsImportMissing imports an ID that names no object, for every
// importable type: by `terraform import` in every form of ID the type takes, by an
// import block with id, and by an import block with identity, whole and with only
// the attributes an import must give (one plan each for all the types of a group).
// Each says Terraform's own "Cannot import non-existent remote object" for the
// address, once, with no error of the provider's anywhere, and nothing is made.
func TestAccSeamsImportMissing(t *testing.T) {
	t.Parallel()

	forEachGroup(t, func(t *testing.T, w *world) {
		targets, config := w.importTargets(t)
		cli := w.cli(t, config)

		for _, target := range targets {
			output, err := cli.Try("import", "-input=false", target.address, target.id)
			assert.Error(t, err, "terraform import %s %s", target.address, target.id)
			requireCannotImport(t, "terraform import", target.address, output)
			requireOnlyCannotImport(t, "terraform import "+target.address+" "+target.id, output, 1)
		}

		var byID, byIdentity strings.Builder

		identities := 0

		for _, target := range targets {
			fmt.Fprintf(&byID, "import {\n  to = %s\n  id = %q\n}\n", target.address, target.id)

			if target.identity == nil {
				continue
			}

			identities++

			fmt.Fprintf(&byIdentity, "import {\n  to = %s\n  identity = {\n", target.address)

			for name, value := range target.identity {
				fmt.Fprintf(&byIdentity, "    %s = %q\n", name, value)
			}

			byIdentity.WriteString("  }\n}\n")
		}

		for _, imports := range []struct {
			how, blocks string
			byIdentity  bool
			count       int
		}{
			{"an import block with id", byID.String(), false, len(targets)},
			{"an import block with identity", byIdentity.String(), true, identities},
		} {
			w.write(cli, config+imports.blocks)

			_, output, err := plan(t, cli)
			assert.Error(t, err, "a plan with %s of missing objects", imports.how)

			for _, target := range targets {
				if imports.byIdentity && target.identity == nil {
					continue
				}

				requireCannotImport(t, imports.how, target.address, output)
			}

			requireOnlyCannotImport(t, "a plan with "+imports.how, output, imports.count)
		}

		w.requireNothingLeaked(t)
	})
}
