package instance

import (
	"strings"
	"testing"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// An import ID is taken apart only into Unikorn IDs, and only as a whole: what is
// read writes back to exactly what was given.
func FuzzParseImportID(f *testing.F) {
	for _, seed := range []string{
		"a0000000-0000-4000-8000-000000000001",
		"a0000000-0000-4000-8000-000000000001/a0000000-0000-4000-8000-000000000002/b0000000-0000-4000-8000-000000000003",
		"a0000000-0000-4000-8000-000000000001/a0000000-0000-4000-8000-000000000002",
		"", "/", "//", "A0000000-0000-4000-8000-000000000001", "web", "a0000000-0000-4000-8000-000000000001/",
	} {
		f.Add(seed)
	}

	f.Fuzz(func(t *testing.T, importID string) {
		organizationID, projectID, id, ok := parseImportID(importID)
		if !ok {
			if organizationID != "" || projectID != "" || id != "" {
				t.Fatalf("a refused %q still yielded parts", importID)
			}

			return
		}

		if !validators.IsUUID(id) {
			t.Fatalf("%q yielded the instance ID %q", importID, id)
		}

		written := id
		if organizationID != "" || projectID != "" {
			if !validators.IsUUID(organizationID) || !validators.IsUUID(projectID) {
				t.Fatalf("%q yielded the scope %q/%q", importID, organizationID, projectID)
			}

			written = strings.Join([]string{organizationID, projectID, id}, "/")
		}

		if written != importID {
			t.Fatalf("%q was read as %q", importID, written)
		}
	})
}
