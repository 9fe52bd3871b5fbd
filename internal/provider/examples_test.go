package provider_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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
				require.NoError(t, os.WriteFile(filepath.Join(work, filepath.Base(file)), []byte(offline(string(content))), 0o600))

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

// guidesDir holds the guides' templates, whose Terraform blocks users copy.
const guidesDir = "../../templates/guides"

// terraformBlock finds a fenced block of Terraform in a guide.
var terraformBlock = regexp.MustCompile("(?s)```terraform\n(.*?)```")

// The guides that build one configuration from start to end; the others show
// alternatives side by side.
var buildingGuides = []string{
	"from-an-empty-project.md.tmpl", "a-web-tier-behind-a-load-balancer.md.tmpl",
	"keeping-data-across-instance-replacement.md.tmpl",
	"a-kubernetes-cluster-and-its-first-workload.md.tmpl",
}

// Users copy the guides' configuration, so the blocks of each guide that builds one
// configuration, read in order as one module, are formatted and valid against the
// provider's schema.
func TestGuidesAreValid(t *testing.T) {
	t.Parallel()

	for _, guide := range buildingGuides {
		t.Run(guide, func(t *testing.T) {
			t.Parallel()

			content, err := os.ReadFile(filepath.Join(guidesDir, guide))
			require.NoError(t, err)

			blocks := terraformBlock.FindAllSubmatch(content, -1)
			require.NotEmpty(t, blocks)

			var module strings.Builder
			for _, block := range blocks {
				module.Write(block[1])
				module.WriteString("\n")
			}

			work := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(work, "guide.tf"), []byte(module.String()), 0o600))

			// The files a guide reads, such as a public key, are the reader's: give them a
			// home of their own.
			home := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
			require.NoError(t, os.WriteFile(filepath.Join(home, ".ssh", "team_ca.pub"),
				[]byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHZ3J4l4Z8sGzVb7Yx0k2mXh8y6D3sN1cQ1wP0aJm5c2 ca@example.com\n"), 0o600))

			cli := acctest.NewCLI(t, work)
			cli.Setenv("HOME", home)
			cli.Run("fmt", "-check", "-diff")

			// Formatted whole; validated as far as the tests can offline.
			require.NoError(t, os.WriteFile(filepath.Join(work, "guide.tf"), []byte(offline(module.String())), 0o600))

			if !strings.Contains(module.String(), "required_providers") {
				require.NoError(t, os.WriteFile(filepath.Join(work, "required_providers.tf"), []byte(requiredProviders), 0o600))
			}

			cli.Run("init", "-input=false", "-backend=false")
			cli.Run("validate")
		})
	}
}

// otherProviders are the providers that examples and guides feed a cluster's
// kubeconfig to, which the tests cannot install: they run offline.
var otherProviders = []string{"kubernetes", "helm"}

var (
	// topLevelBlock is the first line of a block of a module, as `terraform fmt`
	// writes it: its type and labels, e.g. `provider "kubernetes" {`.
	topLevelBlock = regexp.MustCompile(`^(\w+)((?: "[^"]*")*) \{$`)
	// otherRequirement is another provider's one-line entry in required_providers.
	otherRequirement = regexp.MustCompile(`^\s*(` + strings.Join(otherProviders, "|") + `)\s*=\s*\{.*\}\s*$`)
)

// offline is a module as far as it can be validated without the other providers:
// each one's provider block is read as the values it is given (as a locals block,
// which checks that every reference in it exists and may be used there, ephemeral
// ones included), its resources and data sources are left out (their schema is that
// provider's), and so is its entry in required_providers. A module that names none is
// as it was. Formatting is checked on the whole module beforehand.
func offline(module string) string {
	var (
		out  strings.Builder
		skip bool
	)

	for _, line := range strings.SplitAfter(module, "\n") {
		trimmed := strings.TrimRight(line, "\n")

		if skip {
			skip = trimmed != "}"

			continue
		}

		if m := topLevelBlock.FindStringSubmatch(trimmed); m != nil {
			labels := strings.Fields(strings.ReplaceAll(m[2], `"`, ""))

			switch {
			case m[1] == "provider" && len(labels) == 1 && slices.Contains(otherProviders, labels[0]):
				line = "locals {\n"
			case (m[1] == "resource" || m[1] == "data") && len(labels) == 2 && ofOtherProvider(labels[0]):
				skip = true

				continue
			}
		}

		if otherRequirement.MatchString(trimmed) {
			continue
		}

		out.WriteString(line)
	}

	return out.String()
}

// ofOtherProvider reports whether a resource type is one of otherProviders'.
func ofOtherProvider(resourceType string) bool {
	for _, provider := range otherProviders {
		if strings.HasPrefix(resourceType, provider+"_") {
			return true
		}
	}

	return false
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
