package acctest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
)

// Feature is a part of the provider that only some CLIs can drive. The tests run
// under both Terraform and OpenTofu (make test), and a test of a feature the CLI in
// use lacks is skipped with the reason rather than failed.
type Feature struct {
	name string
	// terraform and openTofu are the first versions with the feature; nil for
	// openTofu means OpenTofu has none.
	terraform, openTofu *version.Version
}

// The features beyond what every supported CLI has; README.md lists the versions.
var (
	// Actions are `action` blocks, action triggers and `apply -invoke`.
	Actions = Feature{name: "actions", terraform: tfversion.Version1_14_0}
	// ListResources are `list` blocks and the `query` command.
	ListResources = Feature{name: "list resources and the query command", terraform: tfversion.Version1_14_0}
)

// supported is what every test needs: Terraform 1.14, the first with everything the
// provider offers, or OpenTofu 1.12, the first with import blocks by identity (it
// also has ephemeral resources and write-only attributes).
var supported = Feature{name: "this provider's tests", terraform: tfversion.Version1_14_0, openTofu: tfversion.Version1_12_0}

// openTofuHost is where OpenTofu looks for a provider whose source names no host.
const openTofuHost = "registry.opentofu.org"

// TerraformVersionChecks skips a test on a CLI that cannot run it: one older than
// supported, or one without any of features. `make test` runs every test under both
// the Terraform of scripts/terraform.sh and the OpenTofu of scripts/tofu.sh.
func TerraformVersionChecks(features ...Feature) []tfversion.TerraformVersionCheck {
	return []tfversion.TerraformVersionCheck{featureCheck(features)}
}

type featureCheck []Feature

var _ tfversion.TerraformVersionCheck = featureCheck(nil)

func (c featureCheck) CheckTerraformVersion(_ context.Context, req tfversion.CheckTerraformVersionRequest, resp *tfversion.CheckTerraformVersionResponse) {
	cli, err := usableCLI()
	if err != nil {
		resp.Error = err

		return
	}

	resp.Skip = cli.missing(req.TerraformVersion, c)
}

// SkipUnlessSupported skips a test that drives the CLI itself (see CLI) when the CLI
// lacks one of features, as TerraformVersionChecks does for a TestCase.
func SkipUnlessSupported(t *testing.T, features ...Feature) {
	t.Helper()

	cli, err := usableCLI()
	if err != nil {
		t.Fatal(err)
	}

	if reason := cli.missing(cli.version, features); reason != "" {
		t.Skip(reason)
	}
}

// usableCLI is the CLI under test, or why the provider cannot be served to it.
func usableCLI() (cliInfo, error) {
	cli, err := detectCLI()
	if err == nil && cli.openTofu && os.Getenv("TF_ACC_PROVIDER_HOST") != openTofuHost {
		err = fmt.Errorf("%s is OpenTofu, which looks for the provider under %s: set TF_ACC_PROVIDER_HOST=%s (make test-tofu does)",
			os.Getenv("TF_ACC_TERRAFORM_PATH"), openTofuHost, openTofuHost)
	}

	return cli, err
}

// cliInfo is which CLI TF_ACC_TERRAFORM_PATH names.
type cliInfo struct {
	openTofu bool
	version  *version.Version
}

// missing says why the CLI, at version current, cannot run a test of features, or ""
// when it can.
func (c cliInfo) missing(current *version.Version, features []Feature) string {
	product := "Terraform"
	if c.openTofu {
		product = "OpenTofu"
	}

	for _, feature := range append([]Feature{supported}, features...) {
		minimum := feature.terraform
		if c.openTofu {
			minimum = feature.openTofu
		}

		switch {
		case minimum == nil:
			return fmt.Sprintf("OpenTofu %s has no %s, which this test needs: it runs under Terraform %s or later",
				current, feature.name, feature.terraform)
		case current.Core().LessThan(minimum):
			return fmt.Sprintf("%s %s is older than %s, which %s need", product, current, minimum, feature.name)
		}
	}

	return ""
}

// detectCLI asks the CLI once. Both answer `version -json` alike, so the first line
// of `version` ("Terraform v1.15.0", "OpenTofu v1.12.6") tells them apart; it is
// looked for rather than expected first, because OpenTofu prints warnings about its
// CLI configuration before it.
var detectCLI = sync.OnceValues(func() (cliInfo, error) {
	cli := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if cli == "" {
		// The testing framework then looks for Terraform on PATH.
		cli = "terraform"
	}

	output, err := exec.CommandContext(context.Background(), cli, "version").Output() //nolint:gosec // the test's own CLI
	if err != nil {
		return cliInfo{}, fmt.Errorf("asking %s for its version: %w", cli, err)
	}

	for line := range strings.Lines(string(output)) {
		for product, openTofu := range map[string]bool{"Terraform v": false, "OpenTofu v": true} {
			if reported, ok := strings.CutPrefix(strings.TrimSpace(line), product); ok {
				current, err := version.NewVersion(reported)
				if err != nil {
					return cliInfo{}, fmt.Errorf("reading the version %s reports: %w", cli, err)
				}

				return cliInfo{openTofu: openTofu, version: current}, nil
			}
		}
	}

	return cliInfo{}, fmt.Errorf("%s reports neither a Terraform nor an OpenTofu version:\n%s", cli, output)
})

// providerAddress is where the CLI in use looks for the provider: OpenTofu resolves
// a source without a host at its own registry, so the reattached provider must be
// served under that host for it to be found.
func providerAddress() string {
	host := os.Getenv("TF_ACC_PROVIDER_HOST")
	if host == "" {
		return provider.Address
	}

	_, rest, _ := strings.Cut(provider.Address, "/")

	return host + "/" + rest
}

// NestedAttributeSource is a pattern for the configuration line a CLI quotes with a
// diagnostic on a nested attribute: Terraform quotes the attribute's own line (given
// as attributeLine), OpenTofu the line opening its resource block (blockLine).
func NestedAttributeSource(attributeLine, blockLine string) string {
	if cli, err := detectCLI(); err == nil && cli.openTofu {
		return regexp.QuoteMeta(blockLine)
	}

	return regexp.QuoteMeta(attributeLine)
}
