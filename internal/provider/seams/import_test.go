package seams_test

import (
	"fmt"
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
// forms the type takes, and the identity.
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

		for i, importID := range f.importIDs(w, id) {
			name := fmt.Sprintf("missing_%d", i)
			identity := map[string]string{}

			for _, attribute := range served.identityAttributes(typeName) {
				if fill, ok := identityValues[attribute]; ok {
					identity[attribute] = fill(w, id)
				}
			}

			targets = append(targets, importTarget{typeName: typeName, address: typeName + "." + name, id: importID, identity: identity})
			blocks = append(blocks, block(w, typeName, name, nil))
		}
	}

	return targets, supports(w.fixtureSupport()...) + "\n" + strings.Join(blocks, "\n")
}

// requireCannotImport checks that output says, for address, Terraform's own
// "Cannot import non-existent remote object", and no provider-internal error.
func requireCannotImport(t *testing.T, how, address, output string) {
	t.Helper()

	about := diagnosticAbout(output, address)
	if !strings.Contains(about, "Cannot import non-existent remote object") ||
		strings.Contains(about, "Missing Resource Identity After Read") || strings.Contains(about, "always an issue in the Terraform Provider") {
		t.Errorf("%s of a missing %s: want Terraform's \"Cannot import non-existent remote object\" naming it, got:\n%s",
			how, address, firstLines(about, output))
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
// import block with id, and by an import block with identity (one plan each for all
// the types of a group). Each says Terraform's own "Cannot import non-existent remote
// object" for the address, and nothing is made.
func TestAccSeamsImportMissing(t *testing.T) {
	t.Parallel()

	forEachGroup(t, func(t *testing.T, w *world) {
		targets, config := w.importTargets(t)
		cli := w.cli(t, config)

		for _, target := range targets {
			output, err := cli.Try("import", "-input=false", target.address, target.id)
			assert.Error(t, err, "terraform import %s %s", target.address, target.id)
			requireCannotImport(t, "terraform import", target.address, output)
		}

		var byID, byIdentity strings.Builder

		for _, target := range targets {
			fmt.Fprintf(&byID, "import {\n  to = %s\n  id = %q\n}\n", target.address, target.id)

			if target.id != target.identity["id"] {
				// The import ID's other forms are the same identity.
				continue
			}

			fmt.Fprintf(&byIdentity, "import {\n  to = %s\n  identity = {\n", target.address)

			for name, value := range target.identity {
				fmt.Fprintf(&byIdentity, "    %s = %q\n", name, value)
			}

			byIdentity.WriteString("  }\n}\n")
		}

		for _, imports := range []struct{ how, blocks string }{
			{"an import block with id", byID.String()},
			{"an import block with identity", byIdentity.String()},
		} {
			w.write(cli, config+imports.blocks)

			_, output, err := plan(t, cli)
			assert.Error(t, err, "a plan with %s of missing objects", imports.how)

			for _, target := range targets {
				if imports.how == "an import block with identity" && target.id != target.identity["id"] {
					continue
				}

				requireCannotImport(t, imports.how, target.address, output)
			}
		}

		w.requireNothingLeaked(t)
	})
}
