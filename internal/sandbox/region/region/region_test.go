package region_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/region"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// A flavor pinned to hosts may only be used with an infrastructureRef.
func TestPinnedFlavorNeedsInfrastructureRef(t *testing.T) {
	h := sandboxtest.New(t)

	pinned := region.FixtureFlavor("f1000000-0000-4000-8000-000000000000", "sim-pinned", unikorn.FlavorSpec{CPUs: 64, Memory: 256, Disk: 2000, Architecture: unikorn.ArchitectureX86_64, PinnedOnly: true})
	region.AddFlavor(t, pinned)

	body := sandboxtest.ServerCreate("pinned")
	body.Spec.FlavorID = pinned.Metadata.ID
	h.Call(http.MethodPost, "/api/v2/servers", body).ExpectError(http.StatusUnprocessableEntity, unikorn.ErrorUnprocessableContent)

	body.Spec.InfrastructureRef = "rack-1/host-7"
	server := h.CreateServer(body)
	assert.Equal(t, "rack-1/host-7", server.Status.InfrastructureRef)
}
