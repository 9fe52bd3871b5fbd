package main

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// goreleaserConfig is the part of .goreleaser.yml the Terraform Registry depends on.
type goreleaserConfig struct {
	ProjectName string `yaml:"project_name"`
	Builds      []struct {
		Binary  string   `yaml:"binary"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
	Archives []struct {
		Formats      []string `yaml:"formats"`
		NameTemplate string   `yaml:"name_template"`
		Files        []string `yaml:"files"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string       `yaml:"name_template"`
		Algorithm    string       `yaml:"algorithm"`
		ExtraFiles   []extraFiles `yaml:"extra_files"`
	} `yaml:"checksum"`
	Signs []struct {
		Artifacts string   `yaml:"artifacts"`
		Args      []string `yaml:"args"`
	} `yaml:"signs"`
	Release struct {
		ExtraFiles []extraFiles `yaml:"extra_files"`
	} `yaml:"release"`
}

type extraFiles struct {
	Glob         string `yaml:"glob"`
	NameTemplate string `yaml:"name_template"`
}

// The registry accepts a release only in its own layout. `make release-check` has
// GoReleaser validate the file; this keeps the layout from drifting.
func TestReleaseFollowsTheRegistryLayout(t *testing.T) {
	t.Parallel()

	raw, err := os.ReadFile(".goreleaser.yml")
	require.NoError(t, err)

	var config goreleaserConfig
	require.NoError(t, yaml.Unmarshal(raw, &config))

	assert.Equal(t, "terraform-provider-unikorn", config.ProjectName)

	require.Len(t, config.Builds, 1)
	assert.Equal(t, "{{ .ProjectName }}_v{{ .Version }}", config.Builds[0].Binary)
	assert.Contains(t, config.Builds[0].Ldflags[0], "-X main.version={{ .Version }}", "the version reaches the User-Agent")

	require.Len(t, config.Archives, 1)
	assert.Equal(t, []string{"zip"}, config.Archives[0].Formats)
	assert.Equal(t, "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}", config.Archives[0].NameTemplate)
	assert.Contains(t, config.Archives[0].Files, "LICENSE", "every archive carries the licence")

	for _, file := range config.Archives[0].Files {
		assert.FileExists(t, file, "an archived file must exist, or the release fails")
	}

	manifest := extraFiles{Glob: "terraform-registry-manifest.json", NameTemplate: "{{ .ProjectName }}_{{ .Version }}_manifest.json"}
	assert.Equal(t, "{{ .ProjectName }}_{{ .Version }}_SHA256SUMS", config.Checksum.NameTemplate)
	assert.Equal(t, "sha256", config.Checksum.Algorithm)
	assert.Equal(t, []extraFiles{manifest}, config.Checksum.ExtraFiles, "the manifest is covered by the signed sums")
	assert.Equal(t, []extraFiles{manifest}, config.Release.ExtraFiles, "the manifest is published")

	require.Len(t, config.Signs, 1)
	assert.Equal(t, "checksum", config.Signs[0].Artifacts)
	assert.Equal(t, []string{
		"--batch", "--local-user", "{{ .Env.GPG_FINGERPRINT }}", "--output", "${signature}", "--detach-sign", "${artifact}",
	}, config.Signs[0].Args)
}

// Both registries refuse a provider without a licence they recognise, and the README
// names the one the repository carries.
func TestLicenceIsApacheTwo(t *testing.T) {
	t.Parallel()

	licence, err := os.ReadFile("LICENSE")
	require.NoError(t, err)
	assert.Contains(t, string(licence), "Apache License\n                           Version 2.0, January 2004")
	assert.Contains(t, string(licence), "Copyright 2026 the Unikorn Authors.")

	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	assert.Contains(t, string(readme), "[Apache License 2.0](LICENSE)")
}

// The provider is served over protocol 6 (providerserver.Serve with a framework
// provider), and the manifest must say so or the registry assumes protocol 5.
func TestRegistryManifestDeclaresProtocolSix(t *testing.T) {
	t.Parallel()

	raw, err := os.ReadFile("terraform-registry-manifest.json")
	require.NoError(t, err)

	var manifest struct {
		Version  int `json:"version"`
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(raw, &manifest))

	assert.Equal(t, 1, manifest.Version)
	assert.Equal(t, []string{"6.0"}, manifest.Metadata.ProtocolVersions)
}
