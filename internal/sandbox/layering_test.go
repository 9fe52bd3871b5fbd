package sandbox

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sandboxPath is the sandbox's import path.
const sandboxPath = "github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"

// Every family (a folder internal/sandbox/<service>/<family>) meets the others only
// through core (and the fixtures' names and the services' documents), as
// .golangci.yml's depguard rule says for its code. Its tests may also
// drive the whole sandbox (the sandbox itself and sandboxtest) and name their own
// package; never another family's. core and fixture import no family (their
// external tests may drive the whole sandbox, as a family's tests do).
func TestFamiliesMeetOnlyThroughCore(t *testing.T) {
	shared := map[string]bool{sandboxPath + "/core": true, sandboxPath + "/fixture": true, sandboxPath + "/openapi": true}

	families, err := filepath.Glob(filepath.Join("*", "*"))
	require.NoError(t, err)

	checked := 0

	for _, dir := range families {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() || strings.HasPrefix(dir, "testdata") {
			continue
		}

		own := sandboxPath + "/" + filepath.ToSlash(dir)

		for file, imports := range importsOf(t, dir) {
			checked++

			for _, imported := range imports {
				if !strings.HasPrefix(imported, sandboxPath) || shared[imported] {
					continue
				}

				test := strings.HasSuffix(file, "_test.go")
				allowed := test && (imported == sandboxPath || imported == sandboxPath+"/sandboxtest" || imported == own)
				assert.True(t, allowed, "%s imports %s: a family meets the others only through core", file, imported)
			}
		}
	}

	require.Positive(t, checked, "no family found")

	for _, dir := range []string{"core", "fixture"} {
		for file, imports := range importsOf(t, dir) {
			for _, imported := range imports {
				if !strings.HasPrefix(imported, sandboxPath) || shared[imported] {
					continue
				}

				test := strings.HasSuffix(file, "_test.go")
				allowed := test && (imported == sandboxPath || imported == sandboxPath+"/sandboxtest")
				assert.True(t, allowed, "%s imports %s: it must know no family", file, imported)
			}
		}
	}
}

// importsOf are the imports of every Go file of dir, by file.
func importsOf(t *testing.T, dir string) map[string][]string {
	t.Helper()

	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)

	imports := map[string][]string{}

	for _, file := range files {
		parsed, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		require.NoError(t, err)

		for _, spec := range parsed.Imports {
			imported, err := strconv.Unquote(spec.Path.Value)
			require.NoError(t, err)

			imports[filepath.ToSlash(file)] = append(imports[filepath.ToSlash(file)], imported)
		}
	}

	return imports
}
