package acctest

import (
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/stretchr/testify/assert"
)

// A skip names the CLI, the feature and what would run the test, so a skipped test
// is never mistaken for a passing one.
func TestMissingFeatures(t *testing.T) {
	t.Parallel()

	terraform, openTofu := cliInfo{}, cliInfo{openTofu: true}

	for _, tc := range []struct {
		name     string
		cli      cliInfo
		version  string
		features []Feature
		want     string
	}{
		{"terraform has everything", terraform, "1.15.0", []Feature{Actions, ListResources}, ""},
		{"a terraform prerelease counts as its release", terraform, "1.14.0-rc1", []Feature{Actions}, ""},
		{"old terraform", terraform, "1.13.4", nil, "Terraform 1.13.4 is older than 1.14.0, which this provider's tests need"},
		{"opentofu runs the rest", openTofu, "1.12.6", nil, ""},
		{"old opentofu", openTofu, "1.11.2", nil, "OpenTofu 1.11.2 is older than 1.12.0, which this provider's tests need"},
		{
			"opentofu has no actions", openTofu, "1.12.6", []Feature{ListResources, Actions},
			"OpenTofu 1.12.6 has no list resources and the query command, which this test needs: it runs under Terraform 1.14.0 or later",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()

			assert.Equal(t, tc.want, tc.cli.missing(version.Must(version.NewVersion(tc.version)), tc.features))
		})
	}
}
