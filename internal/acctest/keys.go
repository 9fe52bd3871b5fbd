package acctest

import (
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"
)

// NewAuthorityKey returns a fresh ed25519 public key as one authorized-key line
// without a comment: what an SSH certificate authority holds.
func NewAuthorityKey(t *testing.T) string {
	t.Helper()

	public, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)

	key, err := ssh.NewPublicKey(public)
	require.NoError(t, err)

	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key)))
}
