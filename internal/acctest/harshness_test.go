package acctest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// createSSHCA creates an SSH certificate authority in the test's project with the
// environment's own client, returning its ID (empty when the answer was lost).
func createSSHCA(t *testing.T, env *acctest.Environment) (string, error) {
	t.Helper()

	ca, err := env.Client.CreateSSHCertificateAuthority(context.Background(), unikorn.SSHCertificateAuthorityCreate{
		Metadata: unikorn.WriteMetadata{Name: "harsh"},
		Spec: unikorn.SSHCertificateAuthorityCreateSpec{
			SSHCertificateAuthoritySpec: unikorn.SSHCertificateAuthoritySpec{PublicKey: acctest.NewAuthorityKey(t)},
			OrganizationID:              env.Settings.OrganizationID,
			ProjectID:                   env.Settings.ProjectID,
		},
	})
	if err != nil {
		return "", err
	}

	return ca.Metadata.ID, nil
}

func listedSSHCAs(t *testing.T, env *acctest.Environment) []string {
	t.Helper()

	cas, err := env.Client.ListSSHCertificateAuthorities(context.Background(), unikorn.SSHCertificateAuthorityQuery{})
	require.NoError(t, err)

	ids := make([]string, 0, len(cas))
	for _, ca := range cas {
		ids = append(ids, ca.Metadata.ID)
	}

	return ids
}

func TestHarnessReadsExactlyByDefault(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	id, err := createSSHCA(t, env)
	require.NoError(t, err)
	assert.Contains(t, listedSSHCAs(t, env), id)
}

func TestHarnessWithReadLag(t *testing.T) {
	env := acctest.New(t, acctest.WithReadLag(time.Hour), acctest.WithSeed(1))
	env.SkipUnlessSandbox(t)

	id, err := createSSHCA(t, env)
	require.NoError(t, err)
	assert.NotContains(t, listedSSHCAs(t, env), id, "the list trails the create")

	_, err = env.Client.GetSSHCertificateAuthority(context.Background(), id)
	assert.True(t, unikorn.IsNotFound(err), "a GET trails it too: %v", err)

	env.SetReadLag(t, 0)

	next, err := createSSHCA(t, env)
	require.NoError(t, err)
	assert.Contains(t, listedSSHCAs(t, env), next, "writes after the lag is turned off read exactly")
}

func TestHarnessFaultAfterProcessing(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	before := len(listedSSHCAs(t, env))

	env.AddFault(t, sandbox.FaultRule{
		Method: http.MethodPost, Route: "/api/v2/sshcertificateauthorities",
		Status: http.StatusBadGateway, Phase: sandbox.FaultPhaseAfter, Count: 1,
	})

	_, err := createSSHCA(t, env)
	require.Error(t, err, "the answer is lost")
	assert.Len(t, listedSSHCAs(t, env), before+1, "the create took effect")
}

func TestHarnessProductionLagsReads(t *testing.T) {
	env := acctest.New(t, acctest.Production(t))
	env.SkipUnlessSandbox(t)

	id, err := createSSHCA(t, env)
	require.NoError(t, err)
	assert.NotContains(t, listedSSHCAs(t, env), id, "the list trails the create")

	assert.Eventually(t, func() bool {
		cas, err := env.Client.ListSSHCertificateAuthorities(context.Background(), unikorn.SSHCertificateAuthorityQuery{})

		return err == nil && containsID(cas, id)
	}, acctest.ProductionReadLag+time.Second, 50*time.Millisecond, "and converges within the lag")
}

func containsID(cas []unikorn.SSHCertificateAuthority, id string) bool {
	for _, ca := range cas {
		if ca.Metadata.ID == id {
			return true
		}
	}

	return false
}
