package core_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// listedServerNames lists the names of the servers that exist.
func listedServerNames(h *sandboxtest.Harness) []string {
	h.T.Helper()

	return sandboxtest.Listed(h, sandbox.ServiceToken, "/api/v2/servers", func(server unikorn.Server) string { return server.Metadata.Name })
}

func TestFaultAfterProcessingAnswersAnErrorForAWriteThatHappened(t *testing.T) {
	for _, status := range []int{http.StatusBadGateway, http.StatusGatewayTimeout} {
		h := sandboxtest.New(t)

		_, err := h.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodPost, Route: "/api/v2/servers", Status: status, Phase: sandbox.FaultPhaseAfter, Count: 1})
		require.NoError(t, err)

		h.Call(http.MethodPost, "/api/v2/servers", sandboxtest.ServerCreate("orphan")).ExpectError(status, unikorn.ErrorServerError)
		assert.Equal(t, []string{"orphan"}, listedServerNames(h), "the create took effect although its answer was lost")
	}
}

func TestFaultBeforeProcessingRefusesTheWrite(t *testing.T) {
	h := sandboxtest.New(t)

	_, err := h.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodPost, Route: "/api/v2/servers", Status: http.StatusBadGateway, Phase: sandbox.FaultPhaseBefore, Count: 1})
	require.NoError(t, err)

	h.Call(http.MethodPost, "/api/v2/servers", sandboxtest.ServerCreate("refused")).ExpectError(http.StatusBadGateway, unikorn.ErrorServerError)
	assert.Empty(t, listedServerNames(h))
}

func TestFaultAfterProcessingDropsTheConnection(t *testing.T) {
	h := sandboxtest.New(t)
	server := h.CreateReadyServer("doomed")

	_, err := h.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodDelete, Route: serverRoute, Phase: sandbox.FaultPhaseAfter, Count: 1})
	require.NoError(t, err)

	req, err := http.NewRequest(http.MethodDelete, h.URL+"/api/v2/servers/"+server.Metadata.ID, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+sandbox.ServiceToken)

	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

	_, err = client.Do(req)
	require.Error(t, err, "the answer is lost")

	assert.NotNil(t, h.GetServer(server.Metadata.ID).Metadata.DeletionTime, "the delete took effect")
}

func TestFaultAfterProcessingWithDelayOutlastsTheClient(t *testing.T) {
	h := sandboxtest.New(t)

	_, err := h.Sandbox.AddFault(sandbox.FaultRule{Method: http.MethodPost, Route: "/api/v2/servers", Phase: sandbox.FaultPhaseAfter, Delay: "5s", Count: 1})
	require.NoError(t, err)

	data := `{"metadata":{"name":"slow"},"spec":{"flavorId":"` + sandbox.FlavorStandardID + `","imageId":"` + sandbox.ImageUbuntuID + `","networkId":"` + sandbox.NetworkDefaultID + `"}}`

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()

	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL+"/api/v2/servers", strings.NewReader(data))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+sandbox.ServiceToken)
	req.Header.Set("Content-Type", "application/json")

	_, err = http.DefaultClient.Do(req)
	require.ErrorIs(t, err, context.DeadlineExceeded)

	assert.Equal(t, []string{"slow"}, listedServerNames(h), "the create took effect while the answer was held")
}

func TestFaultPhaseValidation(t *testing.T) {
	h := sandboxtest.New(t)

	h.Call(http.MethodPost, "/sandbox/v1/faults", `{"status":502,"phase":"during"}`).ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	for _, phase := range []string{"", sandbox.FaultPhaseBefore, sandbox.FaultPhaseAfter} {
		_, err := h.Sandbox.AddFault(sandbox.FaultRule{Status: http.StatusBadGateway, Phase: phase})
		require.NoError(t, err, "phase %q", phase)
	}

	var statuses []core.FaultStatus

	h.Call(http.MethodGet, "/sandbox/v1/faults", nil).Expect(http.StatusOK, &statuses)
	require.Len(t, statuses, 3)
	assert.Equal(t, sandbox.FaultPhaseAfter, statuses[2].Phase)
}
