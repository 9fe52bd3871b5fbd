package validators_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

func TestPositiveDuration(t *testing.T) {
	t.Parallel()

	tests := map[string]struct {
		value types.String
		valid bool
	}{
		"null":        {types.StringNull(), true},
		"unknown":     {types.StringUnknown(), true},
		"seconds":     {types.StringValue("30s"), true},
		"compound":    {types.StringValue("1m30s"), true},
		"no unit":     {types.StringValue("30"), false},
		"zero":        {types.StringValue("0s"), false},
		"negative":    {types.StringValue("-5s"), false},
		"not a value": {types.StringValue("soon"), false},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			req := validator.StringRequest{Path: path.Root("request_timeout"), ConfigValue: test.value}
			resp := &validator.StringResponse{}

			validators.PositiveDuration().ValidateString(context.Background(), req, resp)

			assert.Equal(t, !test.valid, resp.Diagnostics.HasError())
		})
	}
}
