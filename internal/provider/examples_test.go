package provider_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// examplesDir holds the configurations the documentation shows and the demo applies.
const examplesDir = "../../examples"

// requiredProviders lets an example that is a fragment, as most documentation
// examples are, name the provider by its registry source.
const requiredProviders = `terraform {
  required_providers {
    unikorn = { source = "unikorn-cloud/unikorn" }
  }
}
`

// Users copy examples, so every one is formatted as `terraform fmt` would.
func TestExamplesAreFormatted(t *testing.T) {
	t.Parallel()

	dir, err := filepath.Abs(examplesDir)
	require.NoError(t, err)

	acctest.NewCLI(t, dir).Run("fmt", "-check", "-recursive", "-diff")
}

// Users copy examples, so every one is valid against the provider's schema: each
// directory is validated as a module of its own, query files included.
func TestExamplesAreValid(t *testing.T) {
	t.Parallel()

	for _, dir := range exampleModules(t) {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()

			work := t.TempDir()
			declared := false
			validate := []string{"validate"}

			var features []acctest.Feature

			for _, file := range configurationFiles(t, filepath.Join(examplesDir, dir)) {
				content, err := os.ReadFile(file)
				require.NoError(t, err)

				declared = declared || strings.Contains(string(content), "required_providers")
				require.NoError(t, os.WriteFile(filepath.Join(work, filepath.Base(file)), content, 0o600))

				// Only a CLI with the features an example shows can validate it.
				if actionBlock.Match(content) {
					features = append(features, acctest.Actions)
				}

				if strings.HasSuffix(file, ".tfquery.hcl") {
					features = append(features, acctest.ListResources)
					validate = []string{"validate", "-query"}
				}
			}

			if !declared {
				require.NoError(t, os.WriteFile(filepath.Join(work, "required_providers.tf"), []byte(requiredProviders), 0o600))
			}

			cli := acctest.NewCLI(t, work)
			acctest.SkipUnlessSupported(t, features...)
			cli.Run("init", "-input=false", "-backend=false")
			cli.Run(validate...)
		})
	}
}

// actionBlock finds an action declared, or triggered from a resource's lifecycle.
var actionBlock = regexp.MustCompile(`(?m)^\s*(action\s+"|action_trigger\s*\{)`)

// exampleModules returns every directory under examplesDir that holds configuration,
// relative to it.
func exampleModules(t *testing.T) []string {
	t.Helper()

	var dirs []string

	err := filepath.WalkDir(examplesDir, func(path string, entry fs.DirEntry, err error) error {
		if err != nil || !entry.IsDir() || len(configurationFiles(t, path)) == 0 {
			return err
		}

		rel, err := filepath.Rel(examplesDir, path)
		dirs = append(dirs, rel)

		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, dirs)

	return dirs
}

// configurationFiles returns the Terraform files of one directory: configuration
// and query files.
func configurationFiles(t *testing.T, dir string) []string {
	t.Helper()

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)

	var files []string

	for _, entry := range entries {
		name := entry.Name()
		if !entry.IsDir() && (strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tfquery.hcl")) {
			files = append(files, filepath.Join(dir, name))
		}
	}

	return files
}
