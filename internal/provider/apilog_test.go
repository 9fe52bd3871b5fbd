package provider

import (
	"bytes"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// The API client's lines reach Terraform's log under their own subsystem and level,
// with the token masked wherever it turns up (an echoed body, an error text).
func TestAPILoggerMasksTheToken(t *testing.T) {
	const token = "s3cr3t-t0ken"

	var output bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &output)
	log := apiLogger(token)

	log(ctx, cloud.LogDebug, "API request", map[string]any{"error": "refused " + token, "status": 401})
	log(ctx, cloud.LogTrace, "API response body "+token, map[string]any{"response_body": `{"note":"` + token + `"}`})

	assert.NotContains(t, output.String(), token)

	entries, err := tflogtest.MultilineJSONDecode(&output)
	require.NoError(t, err)
	require.Len(t, entries, 2)
	assert.Equal(t, "debug", entries[0]["@level"])
	assert.Equal(t, "provider."+apiLogSubsystem, entries[0]["@module"])
	assert.InDelta(t, 401, entries[0]["status"], 0)
	assert.Equal(t, "trace", entries[1]["@level"])
	assert.Contains(t, entries[1]["response_body"], `"note"`, "only the token is masked")
}
