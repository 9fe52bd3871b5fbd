package validators_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

func TestIsUUID(t *testing.T) {
	t.Parallel()

	assert.True(t, validators.IsUUID("c0000000-0000-4000-8000-000000000001"))

	for _, value := range []string{"", "web", "C0000000-0000-4000-8000-000000000001", "c0000000000040008000000000000001", " c0000000-0000-4000-8000-000000000001"} {
		assert.False(t, validators.IsUUID(value), value)
	}
}
