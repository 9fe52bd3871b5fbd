package networking_test

import (
	"testing"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// env is a networking façade over a fresh sandbox.
type env struct {
	client  *unikorn.Client
	service *networking.Service
}

func newEnv(t *testing.T) *env {
	t.Helper()

	world := cloudtest.Start(t, cloudtest.Config{Token: sandbox.PlatformAdminToken})

	return &env{client: world.Client, service: networking.NewService(world.Session)}
}
