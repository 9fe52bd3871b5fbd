package compute

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Region answers an update, and a cache may keep the server as it was just after the
// update, with the status from before it: provisioned, with the old addresses. An
// update that toggles the public address is not done until the address agrees.
func TestAnUpdateIsRealizedWhenTheAddressAgrees(t *testing.T) {
	t.Parallel()

	provisioned := unikorn.ProvisioningProvisioned

	for name, tc := range map[string]struct {
		instance Instance
		want     bool
	}{
		"public address still there after asking to drop it": {Instance{ProvisioningStatus: provisioned, PublicIP: "198.18.0.1"}, false},
		"public address asked for, not there yet":            {Instance{ProvisioningStatus: provisioned, Spec: Spec{PublicIP: true}}, false},
		"public address gone as asked":                       {Instance{ProvisioningStatus: provisioned}, true},
		"public address there as asked":                      {Instance{ProvisioningStatus: provisioned, PublicIP: "198.18.0.1", Spec: Spec{PublicIP: true}}, true},
		"still provisioning":                                 {Instance{ProvisioningStatus: unikorn.ProvisioningProvisioning}, false},
	} {
		assert.Equal(t, tc.want, tc.instance.realized(), name)
	}
}
