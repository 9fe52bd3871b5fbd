package sandbox

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// serverNames lists the names of the servers that exist.
func (h *harness) serverNames() []string {
	h.t.Helper()

	return listed(h, ServiceToken, "/api/v2/servers", func(server unikorn.Server) string { return server.Metadata.Name })
}

func TestFaultAfterProcessingAnswersAnErrorForAWriteThatHappened(t *testing.T) {
	for _, status := range []int{http.StatusBadGateway, http.StatusGatewayTimeout} {
		h := newHarness(t)

		_, err := h.sb.AddFault(FaultRule{Method: http.MethodPost, Route: "/api/v2/servers", Status: status, Phase: FaultPhaseAfter, Count: 1})
		require.NoError(t, err)

		h.call(http.MethodPost, "/api/v2/servers", serverCreate("orphan")).expectError(status, unikorn.ErrorServerError)
		assert.Equal(t, []string{"orphan"}, h.serverNames(), "the create took effect although its answer was lost")
	}
}

func TestFaultBeforeProcessingRefusesTheWrite(t *testing.T) {
	h := newHarness(t)

	_, err := h.sb.AddFault(FaultRule{Method: http.MethodPost, Route: "/api/v2/servers", Status: http.StatusBadGateway, Phase: FaultPhaseBefore, Count: 1})
	require.NoError(t, err)

	h.call(http.MethodPost, "/api/v2/servers", serverCreate("refused")).expectError(http.StatusBadGateway, unikorn.ErrorServerError)
	assert.Empty(t, h.serverNames())
}

func TestFaultAfterProcessingDropsTheConnection(t *testing.T) {
	h := newHarness(t)
	server := h.createReadyServer("doomed")

	_, err := h.sb.AddFault(FaultRule{Method: http.MethodDelete, Route: serverRoute, Phase: FaultPhaseAfter, Count: 1})
	require.NoError(t, err)

	req, err := http.NewRequest(http.MethodDelete, h.url+"/api/v2/servers/"+server.Metadata.ID, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+ServiceToken)

	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

	_, err = client.Do(req)
	require.Error(t, err, "the answer is lost")

	assert.NotNil(t, h.getServer(server.Metadata.ID).Metadata.DeletionTime, "the delete took effect")
}

func TestFaultAfterProcessingWithDelayOutlastsTheClient(t *testing.T) {
	h := newHarness(t)

	_, err := h.sb.AddFault(FaultRule{Method: http.MethodPost, Route: "/api/v2/servers", Phase: FaultPhaseAfter, Delay: "5s", Count: 1})
	require.NoError(t, err)

	data := `{"metadata":{"name":"slow"},"spec":{"flavorId":"` + FlavorStandardID + `","imageId":"` + ImageUbuntuID + `","networkId":"` + NetworkDefaultID + `"}}`

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()

	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url+"/api/v2/servers", strings.NewReader(data))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+ServiceToken)
	req.Header.Set("Content-Type", "application/json")

	_, err = http.DefaultClient.Do(req)
	require.ErrorIs(t, err, context.DeadlineExceeded)

	assert.Equal(t, []string{"slow"}, h.serverNames(), "the create took effect while the answer was held")
}

func TestFaultPhaseValidation(t *testing.T) {
	h := newHarness(t)

	h.call(http.MethodPost, "/sandbox/v1/faults", `{"status":502,"phase":"during"}`).expectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	for _, phase := range []string{"", FaultPhaseBefore, FaultPhaseAfter} {
		_, err := h.sb.AddFault(FaultRule{Status: http.StatusBadGateway, Phase: phase})
		require.NoError(t, err, "phase %q", phase)
	}

	var statuses []core.FaultStatus

	h.call(http.MethodGet, "/sandbox/v1/faults", nil).expect(http.StatusOK, &statuses)
	require.Len(t, statuses, 3)
	assert.Equal(t, FaultPhaseAfter, statuses[2].Phase)
}
