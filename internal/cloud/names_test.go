package cloud_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// Core's name rule is a Kubernetes label value: letters, digits, '-', '_' and '.',
// starting and ending with a letter or digit, at most 63 characters.
func TestValidateNameIsCoresRule(t *testing.T) {
	t.Parallel()

	for _, name := range []string{"a", "web-1", "Web_1.a", "0", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk"} {
		assert.NoError(t, cloud.ValidateName("instance", name), name)
	}

	for _, name := range []string{"", "-a", "a-", "a b", "a/b", "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"} {
		err := cloud.ValidateName("instance", name)
		if assert.Error(t, err, name) {
			assert.Contains(t, err.Error(), "instance name", name)
		}
	}
}

// Region's names of what an object holds (listeners, snapshot policies) are DNS labels
// that start with a lower-case letter.
func TestIsLabelIsRegionsRule(t *testing.T) {
	t.Parallel()

	for _, name := range []string{"a", "web", "web-1", "a1-b2"} {
		assert.True(t, cloud.IsLabel(name), name)
	}

	for _, name := range []string{"", "1a", "Web", "web-", "-web", "we_b", "we.b"} {
		assert.False(t, cloud.IsLabel(name), name)
	}
}
