package networking_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// env is a networking façade over a fresh sandbox, as the fixture project's user.
type env struct {
	sandbox *sandbox.Sandbox
	client  *unikorn.Client
	service *networking.Service
}

func newEnv(t *testing.T) *env {
	t.Helper()

	options := sandbox.DefaultOptions()
	options.ProvisionDelay = 50 * time.Millisecond
	options.DeprovisionDelay = 30 * time.Millisecond

	sb, err := sandbox.New(options)
	require.NoError(t, err)

	server := httptest.NewServer(sb)
	t.Cleanup(func() {
		server.Close()
		require.NoError(t, sb.Close())
	})

	client, err := unikorn.NewClient(unikorn.Config{
		RegionEndpoint:   server.URL,
		IdentityEndpoint: server.URL,
		Token:            sandbox.ServiceToken,
		Retry:            unikorn.RetryPolicy{MaxAttempts: 4, MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond},
	})
	require.NoError(t, err)

	session := cloud.NewSession(client, cloud.WithReadLag(0),
		cloud.WithPollPolicy(cloud.PollPolicy{Min: 5 * time.Millisecond, Max: 20 * time.Millisecond, Factor: 2}))

	return &env{sandbox: sb, client: client, service: networking.NewService(session)}
}
