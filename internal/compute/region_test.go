package compute

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Only region's server API refusing the token means the token lacks service rights:
// identity's 403s and a lost read of one instance mean something else.
func TestServiceRightsTellsTheServerAPIsRefusalApart(t *testing.T) {
	t.Parallel()

	forbidden := func(path string) error {
		return fmt.Errorf("calling: %w", &unikorn.APIError{StatusCode: http.StatusForbidden, Method: http.MethodPost, Path: path})
	}

	tests := map[string]struct {
		err  error
		want bool
	}{
		"server create":         {forbidden("/api/v2/servers"), true},
		"server power":          {forbidden("/api/v2/servers/s-1/start"), true},
		"identity allocation":   {forbidden("/api/v1/organizations/o/projects/p/allocations"), false},
		"network read":          {forbidden("/api/v2/networks/n-1"), false},
		"lost access to a read": {&AccessError{InstanceID: "i", What: "its server", Err: forbidden("/api/v2/servers/s-1")}, false},
		"not found":             {fmt.Errorf("x: %w", &unikorn.APIError{StatusCode: http.StatusNotFound, Path: "/api/v2/servers/s-1"}), false},
		"no error":              {nil, false},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			err := serviceRights(test.err)

			var rights *ServiceRightsError
			assert.Equal(t, test.want, errors.As(err, &rights))
			assert.ErrorIs(t, err, test.err, "the cause stays in the chain")
		})
	}
}
