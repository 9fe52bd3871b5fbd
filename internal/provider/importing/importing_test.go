package importing

import (
	"strings"
	"testing"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// An import ID is taken apart only into Unikorn IDs, by one of the type's forms, and
// only as a whole: what is read writes back to exactly what was given.
func FuzzParse(f *testing.F) {
	instance := Type{Name: "unikorn_compute_instance", Noun: "instance", Forms: []Form{ID, {"organization_id", "project_id", "id"}}}

	for _, seed := range []string{
		"a0000000-0000-4000-8000-000000000001",
		"a0000000-0000-4000-8000-000000000001/a0000000-0000-4000-8000-000000000002/b0000000-0000-4000-8000-000000000003",
		"a0000000-0000-4000-8000-000000000001/a0000000-0000-4000-8000-000000000002",
		"", "/", "//", "A0000000-0000-4000-8000-000000000001", "web", "a0000000-0000-4000-8000-000000000001/",
	} {
		f.Add(seed)
	}

	f.Fuzz(func(t *testing.T, importID string) {
		values, ok := instance.Parse(importID)
		if !ok {
			if values != nil {
				t.Fatalf("a refused %q still yielded parts", importID)
			}

			return
		}

		var written []string

		for _, form := range instance.Forms {
			if len(form) != len(values) {
				continue
			}

			for _, name := range form {
				if !validators.IsUUID(values[name]) {
					t.Fatalf("%q yielded the %s %q", importID, name, values[name])
				}

				written = append(written, values[name])
			}
		}

		if strings.Join(written, "/") != importID {
			t.Fatalf("%q was read as %q", importID, written)
		}
	})
}
