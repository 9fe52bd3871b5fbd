package roles_test

import (
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/roles"
)

// chartValues is the part of identity's chart values (charts/identity/values.yaml)
// that says what roles it installs.
type chartValues struct {
	Roles map[string]struct {
		Description string `yaml:"description"`
		Protected   bool   `yaml:"protected"`
		Scopes      struct {
			Global       map[string][]string `yaml:"global"`
			Organization map[string][]string `yaml:"organization"`
			Project      map[string][]string `yaml:"project"`
		} `yaml:"scopes"`
	} `yaml:"roles"`
}

// The sandbox's roles are those identity v1.18.1's chart installs (its values.yaml is
// in ../testdata as the tag has it), endpoint for endpoint and operation for
// operation, so that a service checks its callers exactly as against real identity.
func TestRolesAreTheChartsOfIdentityV1_18_1(t *testing.T) {
	raw, err := os.ReadFile("../testdata/values-v1.18.1.yaml")
	require.NoError(t, err)

	var chart chartValues
	require.NoError(t, yaml.Unmarshal(raw, &chart))

	names := []string{}

	for _, role := range roles.Roles {
		names = append(names, role.Name)

		want, ok := chart.Roles[role.Name]
		if !assert.True(t, ok, "the chart installs no role %s", role.Name) {
			continue
		}

		assert.Equal(t, want.Description, role.Description, role.Name)
		assert.Equal(t, want.Protected, role.Protected, role.Name)
		assert.Equal(t, sorted(want.Scopes.Global), sorted(role.Global), "%s global", role.Name)
		assert.Equal(t, sorted(want.Scopes.Organization), sorted(role.Organization), "%s organization", role.Name)
		assert.Equal(t, sorted(want.Scopes.Project), sorted(role.Project), "%s project", role.Name)
	}

	assert.Len(t, names, len(chart.Roles), "the chart installs roles the sandbox lacks")
	assert.True(t, slices.IsSorted(names), "the roles are in name order")
}

// sorted is a scope with its operations in order, nil for none.
func sorted(scope map[string][]string) map[string][]string {
	if len(scope) == 0 {
		return nil
	}

	out := map[string][]string{}

	for endpoint, operations := range scope {
		out[endpoint] = slices.Sorted(slices.Values(operations))
	}

	return out
}
