package private_test

import (
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// TestAccAnInstanceKeepsWhenItsCreateWasAnswered applies an instance and reads
// Terraform's state file as the next provider process gets it: the moment the create
// was answered, on this machine's clock, is in the instance's private state, for a
// destroy right after the apply to settle its 404s by (cloud.Creation); and a refresh,
// which saves the instance again, keeps it.
func TestAccAnInstanceKeepsWhenItsCreateWasAnswered(t *testing.T) {
	t.Parallel()

	env := acctest.New(t)
	cli := acctest.NewProcessCLI(t, t.TempDir())
	cli.WriteConfig(env.ProviderConfig() + acctest.Block("unikorn_compute_instance", "answered", env.Given(t)))

	before := time.Now()
	cli.Run("apply", "-auto-approve", "-input=false")

	answered := createAnswered(t, cli)
	assert.WithinRange(t, answered, before, time.Now())

	cli.Run("apply", "-refresh-only", "-auto-approve", "-input=false")
	assert.True(t, answered.Equal(createAnswered(t, cli)), "the refresh kept it")

	cli.Run("destroy", "-auto-approve", "-input=false")
}

// createAnswered is the create_answered key of the one resource instance's private
// state in cli's state file.
func createAnswered(t *testing.T, cli *acctest.CLI) time.Time {
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

	var text string

	require.NoError(t, json.Unmarshal(keys["create_answered"], &text), "private state: %s", raw)

	answered, err := time.Parse(time.RFC3339Nano, text)
	require.NoError(t, err)

	return answered
}
