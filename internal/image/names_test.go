package image_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
)

func TestValidateName(t *testing.T) {
	t.Parallel()

	for _, name := range []string{"web", "web-2026.01_01", "a", strings.Repeat("x", 63)} {
		assert.NoError(t, image.ValidateName(name), name)
	}

	for _, name := range []string{"", "-web", "web-", "web snapshot", strings.Repeat("x", 64)} {
		err := image.ValidateName(name)
		if assert.Error(t, err, name) {
			assert.Contains(t, err.Error(), "not a valid image name")
		}
	}
}
