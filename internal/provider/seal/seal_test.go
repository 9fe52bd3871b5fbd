package seal_test

import (
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/seal"
)

func newKey(t *testing.T) []byte {
	t.Helper()

	key := make([]byte, seal.KeySize)
	_, err := rand.Read(key)
	require.NoError(t, err)

	return key
}

const owner = "c0000000-0000-4000-8000-0000000000a1"

func TestASealedTokenOpensOnlyWithItsKeyForItsAccount(t *testing.T) {
	t.Parallel()

	key := newKey(t)
	token := seal.Token{Token: "secret-access-token-value", Expiry: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}

	sealed, err := seal.Seal(key, owner, token)
	require.NoError(t, err)

	assert.NotContains(t, sealed, token.Token)
	assert.NotContains(t, sealed, base64.StdEncoding.EncodeToString([]byte(token.Token)))

	opened, err := seal.Open(key, owner, sealed)
	require.NoError(t, err)
	assert.Equal(t, token.Token, opened.Token)
	assert.True(t, token.Expiry.Equal(opened.Expiry))

	_, err = seal.Open(newKey(t), owner, sealed)
	require.ErrorIs(t, err, seal.ErrWrongKey, "another key")

	_, err = seal.Open(key, "c0000000-0000-4000-8000-0000000000a2", sealed)
	require.ErrorIs(t, err, seal.ErrWrongKey, "another account's")

	// Every character of the sealed form counts: one changed anywhere, even among the
	// last one's unused bits, is refused.
	for _, at := range []int{len(sealed) / 2, len(sealed) - 3} {
		altered := []byte(sealed)
		if altered[at] == 'A' {
			altered[at] = 'B'
		} else {
			altered[at] = 'A'
		}

		_, err = seal.Open(key, owner, string(altered))
		require.Error(t, err, "altered at %d", at)
	}
}

func TestEachSealDrawsItsOwnNonce(t *testing.T) {
	t.Parallel()

	key := newKey(t)
	token := seal.Token{Token: "same", Expiry: time.Now()}

	first, err := seal.Seal(key, owner, token)
	require.NoError(t, err)
	second, err := seal.Seal(key, owner, token)
	require.NoError(t, err)

	assert.NotEqual(t, first, second)
}

func TestOpenRefusesWhatIsNotASealedToken(t *testing.T) {
	t.Parallel()

	key := newKey(t)

	for _, sealed := range []string{"", "plain-token", "unikorn-sealed-v1:", "unikorn-sealed-v1:!!!", "unikorn-sealed-v1:AAAA"} {
		_, err := seal.Open(key, owner, sealed)
		require.Error(t, err, "%q", sealed)
		assert.NotErrorIs(t, err, seal.ErrWrongKey, "%q is no seal at all", sealed)
	}
}

func TestParseKeyWantsThirtyTwoBase64Bytes(t *testing.T) {
	t.Parallel()

	key := newKey(t)

	parsed, err := seal.ParseKey(base64.StdEncoding.EncodeToString(key) + "\n")
	require.NoError(t, err)
	assert.Equal(t, key, parsed)

	_, err = seal.ParseKey(base64.StdEncoding.EncodeToString(key[:16]))
	require.ErrorContains(t, err, "16 bytes")

	_, err = seal.ParseKey(strings.Repeat("x", 43) + "%")
	require.ErrorContains(t, err, "base64")
}
