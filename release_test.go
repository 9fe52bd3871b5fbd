package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"text/template"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// goreleaserConfig is the part of a GoReleaser configuration that decides which files
// a release holds and what they are named.
type goreleaserConfig struct {
	ProjectName string `yaml:"project_name"`
	Dist        string `yaml:"dist"`
	Builds      []struct {
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Ldflags []string `yaml:"ldflags"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Ignore  []struct {
			Goos   string `yaml:"goos"`
			Goarch string `yaml:"goarch"`
		} `yaml:"ignore"`
	} `yaml:"builds"`
	Archives []struct {
		Formats         []string `yaml:"formats"`
		FormatOverrides []struct {
			Goos    string   `yaml:"goos"`
			Formats []string `yaml:"formats"`
		} `yaml:"format_overrides"`
		NameTemplate string   `yaml:"name_template"`
		Files        []string `yaml:"files"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string       `yaml:"name_template"`
		Algorithm    string       `yaml:"algorithm"`
		IDs          []string     `yaml:"ids"`
		Split        bool         `yaml:"split"`
		ExtraFiles   []extraFiles `yaml:"extra_files"`
	} `yaml:"checksum"`
	Signs []struct {
		Artifacts string   `yaml:"artifacts"`
		Signature string   `yaml:"signature"`
		Args      []string `yaml:"args"`
	} `yaml:"signs"`
	Release struct {
		GitHub struct {
			Owner string `yaml:"owner"`
			Name  string `yaml:"name"`
		} `yaml:"github"`
		Mode       string       `yaml:"mode"`
		ExtraFiles []extraFiles `yaml:"extra_files"`
	} `yaml:"release"`
}

func readGoreleaserConfig(t *testing.T, path string) goreleaserConfig {
	t.Helper()

	raw, err := os.ReadFile(path)
	require.NoError(t, err)

	var config goreleaserConfig
	require.NoError(t, yaml.Unmarshal(raw, &config))

	return config
}

// platforms are the os/arch pairs a build makes, as GoReleaser expands them.
func (c goreleaserConfig) platforms() [][2]string {
	var platforms [][2]string

	for _, goos := range c.Builds[0].Goos {
	arch:
		for _, goarch := range c.Builds[0].Goarch {
			for _, ignore := range c.Builds[0].Ignore {
				if ignore.Goos == goos && ignore.Goarch == goarch {
					continue arch
				}
			}

			platforms = append(platforms, [2]string{goos, goarch})
		}
	}

	return platforms
}

// releaseFiles renders the names of every file a configuration adds to the release of
// version 1.2.3 (GoReleaser's templates are Go templates), with the signature's
// default name.
func (c goreleaserConfig) releaseFiles(t *testing.T) []string {
	t.Helper()

	fields := map[string]string{"ProjectName": c.ProjectName, "Version": "1.2.3"}

	var files []string

	for _, platform := range c.platforms() {
		fields["Os"], fields["Arch"] = platform[0], platform[1]
		format := c.Archives[0].Formats[0]

		for _, override := range c.Archives[0].FormatOverrides {
			if override.Goos == platform[0] {
				format = override.Formats[0]
			}
		}

		files = append(files, render(t, c.Archives[0].NameTemplate, fields)+"."+format)
	}

	sums := render(t, c.Checksum.NameTemplate, fields)
	files = append(files, sums, sums+".sig")

	for _, extra := range c.Release.ExtraFiles {
		files = append(files, render(t, extra.NameTemplate, fields))
	}

	return files
}

func render(t *testing.T, text string, fields map[string]string) string {
	t.Helper()

	var out strings.Builder

	require.NoError(t, template.Must(template.New("").Option("missingkey=error").Parse(text)).Execute(&out, fields))

	return out.String()
}

type extraFiles struct {
	Glob         string `yaml:"glob"`
	NameTemplate string `yaml:"name_template"`
}

// The registry accepts a release only in its own layout. `make release-check` has
// GoReleaser validate the file; this keeps the layout from drifting.
func TestReleaseFollowsTheRegistryLayout(t *testing.T) {
	t.Parallel()

	config := readGoreleaserConfig(t, ".goreleaser.yml")

	assert.Equal(t, "terraform-provider-unikorn", config.ProjectName)
	assert.Empty(t, config.Dist, "the registry's files are built into dist/")

	require.Len(t, config.Builds, 1, "the provider only: the sandbox has a configuration of its own")
	assert.Contains(t, []string{"", "."}, config.Builds[0].Main, "the provider's main package")
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
	assert.False(t, config.Checksum.Split, "one sums file")
	assert.Empty(t, config.Checksum.IDs, "every archive of this configuration, the provider's")
	assert.Equal(t, []extraFiles{manifest}, config.Checksum.ExtraFiles, "the manifest is covered by the signed sums")
	assert.Equal(t, []extraFiles{manifest}, config.Release.ExtraFiles, "the manifest is published")

	require.Len(t, config.Signs, 1)
	assert.Equal(t, "checksum", config.Signs[0].Artifacts)
	assert.Empty(t, config.Signs[0].Signature, "GoReleaser's default name, the sums file's name and .sig")
	assert.Equal(t, gpgDetachSign, config.Signs[0].Args)

	// What the registry reads, as a release of 1.2.3 names it: the platforms it has
	// always had, each a zip, then the sums, their signature and the manifest.
	var expected []string

	for _, goos := range []string{"darwin", "freebsd", "linux", "windows"} {
		for _, goarch := range []string{"386", "amd64", "arm", "arm64"} {
			if goos == "darwin" && (goarch == "386" || goarch == "arm") || goos == "windows" && goarch == "arm" {
				continue
			}

			expected = append(expected, "terraform-provider-unikorn_1.2.3_"+goos+"_"+goarch+".zip")
		}
	}

	expected = append(expected, "terraform-provider-unikorn_1.2.3_SHA256SUMS", "terraform-provider-unikorn_1.2.3_SHA256SUMS.sig",
		"terraform-provider-unikorn_1.2.3_manifest.json")
	assert.Equal(t, expected, config.releaseFiles(t))
}

// gpgDetachSign signs with the key the release workflow imports.
var gpgDetachSign = []string{
	"--batch", "--local-user", "{{ .Env.GPG_FINGERPRINT }}", "--output", "${signature}", "--detach-sign", "${artifact}",
}

// The sandbox is released beside the provider, by a configuration of its own so that
// its archives have their own signed sums and the registry's files stay as they are.
func TestSandboxIsReleasedInFilesOfItsOwn(t *testing.T) {
	t.Parallel()

	provider := readGoreleaserConfig(t, ".goreleaser.yml")
	config := readGoreleaserConfig(t, ".goreleaser.sandbox.yml")

	assert.Equal(t, "unikorn-sandbox", config.ProjectName)
	assert.Equal(t, "dist/sandbox", config.Dist, "beside the provider's dist/, whose --clean runs first")

	require.Len(t, config.Builds, 1)
	assert.Equal(t, "./cmd/unikorn-sandbox", config.Builds[0].Main)
	assert.Equal(t, "unikorn-sandbox", config.Builds[0].Binary)
	assert.Contains(t, config.Builds[0].Ldflags[0], "-X main.version={{ .Version }}", "-version prints the release")
	assert.ElementsMatch(t, [][2]string{
		{"darwin", "amd64"}, {"darwin", "arm64"}, {"linux", "amd64"}, {"linux", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"},
	}, config.platforms())

	require.Len(t, config.Archives, 1)
	assert.Contains(t, config.Archives[0].Files, "LICENSE", "every archive carries the licence")

	for _, file := range config.Archives[0].Files {
		assert.FileExists(t, file, "an archived file must exist, or the release fails")
	}

	assert.False(t, config.Checksum.Split)
	assert.Equal(t, "sha256", config.Checksum.Algorithm)
	assert.Empty(t, config.Checksum.ExtraFiles, "the manifest belongs to the provider's sums")
	require.Len(t, config.Signs, 1)
	assert.Equal(t, "checksum", config.Signs[0].Artifacts)
	assert.Equal(t, gpgDetachSign, config.Signs[0].Args, "signed with the provider's key")

	assert.Equal(t, provider.Release.GitHub, config.Release.GitHub, "the same release")
	assert.Equal(t, "keep-existing", config.Release.Mode, "the provider's run made the release")
	assert.Empty(t, config.Release.ExtraFiles)

	files := config.releaseFiles(t)
	assert.Equal(t, []string{
		"unikorn-sandbox_1.2.3_darwin_amd64.tar.gz", "unikorn-sandbox_1.2.3_darwin_arm64.tar.gz",
		"unikorn-sandbox_1.2.3_linux_amd64.tar.gz", "unikorn-sandbox_1.2.3_linux_arm64.tar.gz",
		"unikorn-sandbox_1.2.3_windows_amd64.zip", "unikorn-sandbox_1.2.3_windows_arm64.zip",
		"unikorn-sandbox_1.2.3_SHA256SUMS", "unikorn-sandbox_1.2.3_SHA256SUMS.sig",
	}, files)

	// The registry takes every file named after the provider for its own.
	for _, file := range files {
		assert.NotContains(t, provider.releaseFiles(t), file)
		assert.False(t, strings.HasPrefix(file, provider.ProjectName), "%s would be taken for the registry's", file)
	}
}

// The release workflow runs the provider's configuration, then the sandbox's.
func TestReleaseWorkflowPublishesBoth(t *testing.T) {
	t.Parallel()

	raw, err := os.ReadFile(".github/workflows/release.yml")
	require.NoError(t, err)

	var workflow struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}

	require.NoError(t, yaml.Unmarshal(raw, &workflow))

	var runs []string

	for _, step := range workflow.Jobs["goreleaser"].Steps {
		if strings.HasPrefix(step.Uses, "goreleaser/goreleaser-action@") {
			runs = append(runs, step.With["args"])
		}
	}

	assert.Equal(t, []string{"release --clean", "release --clean --config .goreleaser.sandbox.yml"}, runs)
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
