package openapi

import (
	"testing"
	"testing/fstest"
)

func TestEverySpecLoads(t *testing.T) {
	for _, name := range []string{Identity, Region, Compute} {
		if _, err := Load(name); err != nil {
			t.Error(err)
		}
	}
}

// A family that brings its own document has it found first, its references to the
// documents here resolved among them.
func TestAFamilysOwnDocumentLoads(t *testing.T) {
	own := fstest.MapFS{"own-v1.0.0.spec.yaml": {Data: []byte(`openapi: 3.0.3
info:
  title: A family's own service.
  version: 1.0.0
paths:
  /api/version:
    get:
      responses:
        "200":
          description: The service's version.
          content:
            application/json:
              schema:
                $ref: "./core-v1.17.1.spec.yaml#/components/schemas/serviceVersionRead"
`)}}

	spec, err := Load("own-v1.0.0.spec.yaml", own)
	if err != nil {
		t.Fatal(err)
	}

	if spec.Paths.Find("/api/version") == nil {
		t.Error("the family's own document lost its path")
	}

	if _, err := Load("own-v1.0.0.spec.yaml"); err == nil {
		t.Error("a document no family brings loads")
	}
}
