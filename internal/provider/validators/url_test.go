package validators_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

func TestHTTPURL(t *testing.T) {
	t.Parallel()

	for value, valid := range map[string]bool{
		"https://images.example.com/disk.raw": true,
		"http://10.0.0.1:8080/disk.raw?sig=x": true,
		"https://images.example.com":          true,
		"ftp://images.example.com/disk.raw":   false,
		"images.example.com/disk.raw":         false,
		"https://":                            false,
		"https:///disk.raw":                   false,
		"https://images.example.com/a disk":   false,
		"":                                    false,
	} {
		resp := &validator.StringResponse{}
		validators.HTTPURL().ValidateString(t.Context(), validator.StringRequest{ConfigValue: types.StringValue(value)}, resp)
		assert.Equal(t, valid, !resp.Diagnostics.HasError(), "%q", value)
	}
}
