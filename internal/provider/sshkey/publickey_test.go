package sshkey

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"
)

func TestPublicKeyOpenSSHFromEveryKeyFormat(t *testing.T) {
	t.Parallel()

	_, ed25519Key, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)

	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)

	ecdsaKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)

	openSSH := func(key crypto.PrivateKey) string {
		block, err := ssh.MarshalPrivateKey(key, "")
		require.NoError(t, err)

		return string(pem.EncodeToMemory(block))
	}

	tests := map[string]struct {
		privateKey string
		public     crypto.PublicKey
		prefix     string
	}{
		"ed25519, OpenSSH format": {openSSH(ed25519Key), ed25519Key.Public(), "ssh-ed25519 "},
		"RSA, OpenSSH format":     {openSSH(rsaKey), rsaKey.Public(), "ssh-rsa "},
		"RSA, PKCS #1 PEM": {
			string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(rsaKey)})),
			rsaKey.Public(), "ssh-rsa ",
		},
		"ECDSA, OpenSSH format": {openSSH(ecdsaKey), ecdsaKey.Public(), "ecdsa-sha2-nistp256 "},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			want, err := ssh.NewPublicKey(test.public)
			require.NoError(t, err)

			got := publicKeyOpenSSH(test.privateKey)
			require.False(t, got.IsNull())
			assert.True(t, strings.HasPrefix(got.ValueString(), test.prefix), got.ValueString())
			assert.NotContains(t, got.ValueString(), "\n")

			parsed, _, _, _, err := ssh.ParseAuthorizedKey([]byte(got.ValueString()))
			require.NoError(t, err)
			assert.Equal(t, want.Marshal(), parsed.Marshal())
		})
	}
}

func TestPublicKeyOpenSSHIsNullWhenNotDerivable(t *testing.T) {
	t.Parallel()

	_, key, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)

	encrypted, err := ssh.MarshalPrivateKeyWithPassphrase(key, "", []byte("secret"))
	require.NoError(t, err)

	for name, privateKey := range map[string]string{
		"encrypted": string(pem.EncodeToMemory(encrypted)),
		"not a key": "not a key",
		"empty":     "",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			assert.True(t, publicKeyOpenSSH(privateKey).IsNull())
		})
	}
}
