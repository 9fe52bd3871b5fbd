package private_test

import (
	"encoding/base64"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
)

// TestAccAnInstanceKeepsWhenItsCreateWasAnswered applies an instance and reads
// Terraform's state file as the next provider process gets it: the moment the create
// was answered is in the instance's private state, for a destroy right after the
// apply to settle its 404s by (cloud.Creation), and reads back within the apply; and a
// refresh, which saves the instance again, keeps it as it was.
func TestAccAnInstanceKeepsWhenItsCreateWasAnswered(t *testing.T) {
	t.Parallel()

	if runtime.GOOS != "linux" {
		t.Skip("kept by the time since boot, which only Linux tells")
	}

	env := acctest.New(t)
	cli := acctest.NewProcessCLI(t, t.TempDir())
	cli.WriteConfig(env.ProviderConfig() + acctest.Block("unikorn_compute_instance", "answered", env.Given(t)))

	before := time.Now()
	cli.Run("apply", "-auto-approve", "-input=false")

	kept := createAnswered(t, cli)

	var diags diag.Diagnostics

	assert.WithinRange(t, private.CreateAnswered(t.Context(), keys{"create_answered": kept}, &diags), before, time.Now())
	assert.False(t, diags.HasError())

	cli.Run("apply", "-refresh-only", "-auto-approve", "-input=false")
	assert.Equal(t, string(kept), string(createAnswered(t, cli)), "the refresh kept it")

	cli.Run("destroy", "-auto-approve", "-input=false")
}

// createAnswered is the create_answered key of the one resource instance's private
// state in cli's state file.
func createAnswered(t *testing.T, cli *acctest.CLI) []byte {
	t.Helper()

	var state struct {
		Resources []struct {
			Instances []struct {
				Private string `json:"private"`
			} `json:"instances"`
		} `json:"resources"`
	}

	require.NoError(t, json.Unmarshal([]byte(cli.ReadFile("terraform.tfstate")), &state))
	require.Len(t, state.Resources, 1)
	require.Len(t, state.Resources[0].Instances, 1)

	raw, err := base64.StdEncoding.DecodeString(state.Resources[0].Instances[0].Private)
	require.NoError(t, err)

	// The framework keeps each key's value, itself JSON, as bytes.
	var keys map[string][]byte

	require.NoError(t, json.Unmarshal(raw, &keys), "private state: %s", raw)
	require.NotEmpty(t, keys["create_answered"], "private state: %s", raw)

	return keys["create_answered"]
}
