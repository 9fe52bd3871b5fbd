package core_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const serverRoute = "/api/v2/servers/{serverID}"

// statuses sends n GETs of the default network and returns their statuses.
func statuses(h *sandboxtest.Harness, n int) []int {
	h.T.Helper()

	statuses := make([]int, n)
	for i := range statuses {
		statuses[i] = h.Call(http.MethodGet, "/api/v2/networks/"+sandbox.NetworkDefaultID, nil).Status
	}

	return statuses
}

func TestFaultStatusAndCount(t *testing.T) {
	h := sandboxtest.New(t)

	_, err := h.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodGet, Route: "/api/v2/networks/{networkID}", Status: http.StatusServiceUnavailable, Count: 2})
	require.NoError(t, err)

	assert.Equal(t, []int{503, 503, 200, 200}, statuses(h, 4))

	body := h.Call(http.MethodGet, "/api/v2/networks", nil).Expect(http.StatusOK, nil)
	assert.NotEmpty(t, body.Body, "a rule only faults its own route")
}

func TestFaultAnswersTheStandardErrorBody(t *testing.T) {
	h := sandboxtest.New(t)

	_, err := h.Sandbox.AddFault(sandbox.FaultRule{Route: "/api/v2/networks/{networkID}", Status: http.StatusConflict})
	require.NoError(t, err)

	body := h.Call(http.MethodGet, "/api/v2/networks/"+sandbox.NetworkDefaultID, nil).ExpectError(http.StatusConflict, unikorn.ErrorConflict)
	assert.Equal(t, "the requested resource already exists", body.ErrorDescription)
}

func TestFaultAfterSkipsMatches(t *testing.T) {
	h := sandboxtest.New(t)

	_, err := h.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodGet, Route: "/api/v2/networks/{networkID}", Status: http.StatusBadGateway, After: 2, Count: 1})
	require.NoError(t, err)

	assert.Equal(t, []int{200, 200, 502, 200}, statuses(h, 4))
}

func TestFaultWithUnlimitedCountKeepsFiring(t *testing.T) {
	h := sandboxtest.New(t)

	_, err := h.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodGet, Route: "/api/v2/networks/{networkID}", Status: http.StatusInternalServerError})
	require.NoError(t, err)

	assert.Equal(t, []int{500, 500, 500}, statuses(h, 3))

	h.Sandbox.ClearFaults()
	assert.Equal(t, []int{200}, statuses(h, 1))
}

func TestFaultWithProbabilityZeroNeverFires(t *testing.T) {
	h := sandboxtest.New(t)

	h.Call(http.MethodPost, "/sandbox/v1/faults", `{"route":"/api/v2/networks/{networkID}","status":503,"probability":0}`).Expect(http.StatusCreated, nil)
	assert.Equal(t, []int{200, 200, 200, 200, 200}, statuses(h, 5))

	// Omitted, the probability is 1.
	h.Call(http.MethodPost, "/sandbox/v1/faults", `{"route":"/api/v2/networks/{networkID}","status":503}`).Expect(http.StatusCreated, nil)
	assert.Equal(t, []int{503}, statuses(h, 1))

	var faults []core.FaultStatus

	h.Call(http.MethodGet, "/sandbox/v1/faults", nil).Expect(http.StatusOK, &faults)
	require.Len(t, faults, 2)
	assert.Equal(t, 6, faults[0].Matched)
	assert.Zero(t, faults[0].Fired)
	assert.Equal(t, 1, faults[1].Fired)
}

func TestFaultDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := sandboxtest.InBubble(t)

		_, err := h.Sandbox.AddFault(sandbox.FaultRule{Route: "/api/v2/networks/{networkID}", Status: http.StatusGatewayTimeout, Delay: "150ms", Count: 1})
		require.NoError(t, err)

		start := time.Now()
		assert.Equal(t, []int{504}, statuses(h, 1))
		assert.GreaterOrEqual(t, time.Since(start), 150*time.Millisecond)
	})
}

func TestFaultStatusZeroDropsTheConnection(t *testing.T) {
	h := sandboxtest.New(t)
	server := h.CreateReadyServer("dropped")

	_, err := h.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodGet, Route: serverRoute, Status: 0, Count: 1})
	require.NoError(t, err)

	req, err := http.NewRequest(http.MethodGet, h.URL+"/api/v2/servers/"+server.Metadata.ID, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+sandbox.ServiceToken)

	// A fresh transport, so the request cannot be retried on another idle connection.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

	_, err = client.Do(req)
	require.Error(t, err)
	assert.True(t, errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET), "got %v", err)

	// The rule is spent: the next request is served.
	h.GetServer(server.Metadata.ID)
}

func TestFaultRuleValidation(t *testing.T) {
	h := sandboxtest.New(t)

	for name, rule := range map[string]sandbox.FaultRule{
		"unknown route":       {Route: "/api/v2/server/{serverID}", Status: 500},
		"route of no method":  {Method: http.MethodPatch, Route: serverRoute, Status: 500},
		"success status":      {Route: serverRoute, Status: 200},
		"bad delay":           {Route: serverRoute, Status: 500, Delay: "soon"},
		"negative count":      {Route: serverRoute, Status: 500, Count: -1},
		"probability above 1": {Route: serverRoute, Status: 500, Probability: 1.5},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := h.Sandbox.AddFault(rule)
			require.Error(t, err)
		})
	}
}

func TestStatsCountByRouteTemplateAndReset(t *testing.T) {
	h := sandboxtest.New(t)

	first := h.CreateReadyServer("first")
	second := h.CreateReadyServer("second")

	_, err := h.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodGet, Route: serverRoute, Status: http.StatusServiceUnavailable, Count: 1})
	require.NoError(t, err)

	h.Call(http.MethodGet, "/api/v2/servers/"+first.Metadata.ID, nil).Expect(http.StatusServiceUnavailable, nil)
	h.Call(http.MethodGet, "/api/v2/servers/"+second.Metadata.ID, nil).Expect(http.StatusOK, nil)
	h.Call(http.MethodGet, "/api/v2/nothing", nil).Expect(http.StatusNotFound, nil)

	stats := h.Sandbox.Stats()
	assert.Equal(t, 2, stats.Routes["POST /api/v2/servers"])
	// Two reads by createReadyServer, the faulted one and the served one.
	assert.Equal(t, 4, stats.Routes["GET /api/v2/servers/{serverID}"])
	assert.Equal(t, 7, stats.Total, "unmatched requests count in the total only")

	// Control requests are not counted.
	var overHTTP sandbox.Stats

	h.Call(http.MethodGet, "/sandbox/v1/stats", nil).Expect(http.StatusOK, &overHTTP)
	assert.Equal(t, stats, overHTTP)

	h.Call(http.MethodDelete, "/sandbox/v1/stats", nil).Expect(http.StatusNoContent, nil)
	assert.Equal(t, sandbox.Stats{Total: 0, Routes: map[string]int{}}, h.Sandbox.Stats())
}

func TestLatencyAppliesToAPIRequestsOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := sandboxtest.InBubble(t)

		require.NoError(t, h.Sandbox.UpdateSettings(sandbox.Settings{Latency: "120ms"}))

		start := time.Now()
		h.Call(http.MethodGet, "/sandbox/v1/stats", nil).Expect(http.StatusOK, nil)
		assert.Less(t, time.Since(start), 120*time.Millisecond)

		start = time.Now()
		h.Call(http.MethodGet, "/api/v1/organizations", nil).Expect(http.StatusOK, nil)
		assert.GreaterOrEqual(t, time.Since(start), 120*time.Millisecond)
	})
}

func TestSettingsChangeDelaysOfNewTransitions(t *testing.T) {
	h := sandboxtest.New(t)

	slow := h.CreateServer(sandboxtest.ServerCreate("slow"))

	var settings sandbox.Settings

	h.Call(http.MethodPut, "/sandbox/v1/settings", sandbox.Settings{ProvisionDelay: "10s", DeprovisionDelay: "20s"}).Expect(http.StatusOK, &settings)
	showInvisible := false
	assert.Equal(t, sandbox.Settings{Latency: "0s", ProvisionDelay: "10s", DeprovisionDelay: "20s", ReadLag: "0s", ShowInvisible: &showInvisible}, settings)

	slower := h.CreateServer(sandboxtest.ServerCreate("slower"))

	h.Clock.Advance(sandboxtest.Settle)
	assert.Equal(t, unikorn.ProvisioningProvisioned, h.GetServer(slow.Metadata.ID).Metadata.ProvisioningStatus, "started under the old delay")
	assert.Equal(t, unikorn.ProvisioningPending, h.GetServer(slower.Metadata.ID).Metadata.ProvisioningStatus)

	h.Clock.Advance(10 * time.Second)
	assert.Equal(t, unikorn.ProvisioningProvisioned, h.GetServer(slower.Metadata.ID).Metadata.ProvisioningStatus)

	h.Call(http.MethodPut, "/sandbox/v1/settings", sandbox.Settings{Latency: "later"}).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)
}

func TestControlAPIIsForTheFixtureUserOnly(t *testing.T) {
	h := sandboxtest.New(t)

	h.CallAs("", http.MethodGet, "/sandbox/v1/stats", nil).ExpectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
	h.CallAs(sandbox.OutsiderToken, http.MethodGet, "/sandbox/v1/stats", nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)
	h.Call(http.MethodGet, "/sandbox/v1/nothing", nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestControlClient(t *testing.T) {
	h := sandboxtest.New(t)
	ctx := context.Background()
	control := sandbox.NewControlClient(h.URL, sandbox.DefaultToken, nil)

	server := h.CreateReadyServer("controlled")

	stats, err := control.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, stats.Routes["POST /api/v2/servers"])

	require.NoError(t, control.ResetStats(ctx))

	stats, err = control.Stats(ctx)
	require.NoError(t, err)
	assert.Zero(t, stats.Total)

	id, err := control.AddFault(ctx, sandbox.FaultRule{Method: http.MethodGet, Route: serverRoute, Status: http.StatusTooManyRequests, Count: 1})
	require.NoError(t, err)
	assert.NotEmpty(t, id)
	h.Call(http.MethodGet, "/api/v2/servers/"+server.Metadata.ID, nil).Expect(http.StatusTooManyRequests, nil)

	_, err = control.AddFault(ctx, sandbox.FaultRule{Route: "/nowhere", Status: 500})
	require.ErrorContains(t, err, "400 invalid_request")

	require.NoError(t, control.ClearFaults(ctx))
	require.NoError(t, control.UpdateSettings(ctx, sandbox.Settings{DeprovisionDelay: "1s"}))

	require.NoError(t, control.FailServer(ctx, server.Metadata.ID))
	assert.Equal(t, unikorn.ProvisioningError, h.GetServer(server.Metadata.ID).Metadata.ProvisioningStatus)
	require.ErrorContains(t, control.FailServer(ctx, "f0000000-0000-4000-8000-000000000000"), "404")

	allocations, err := control.Allocations(ctx)
	require.NoError(t, err)
	assert.Len(t, allocations, 3, "the fixture networks' allocations")
}
