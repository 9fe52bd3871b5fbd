package unikorn

import (
	"testing"
	"unicode"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDeriveServerIDIsDeterministicAndLetterFirst(t *testing.T) {
	t.Parallel()

	const network = "c0000000-0000-4000-8000-000000000001"

	for _, name := range []string{"web-1", "web-2", "db", "a", "0"} {
		first, err := DeriveServerID(network, name)
		require.NoError(t, err)

		second, err := DeriveServerID(network, name)
		require.NoError(t, err)

		assert.Equal(t, first, second, name)
		assert.True(t, unicode.IsLetter(rune(first[0])), "%s: %s must start with a letter", name, first)
	}
}

func TestDeriveServerIDRehashesRawBytesUntilLetterFirst(t *testing.T) {
	t.Parallel()

	namespace := uuid.MustParse("c0000000-0000-4000-8000-000000000001")

	// Find a name whose first hash starts with a digit, then check the documented rule.
	for i := range 1000 {
		name := uuid.NewSHA1(uuid.Nil, []byte{byte(i), byte(i >> 8)}).String()[:8]

		first := uuid.NewSHA1(namespace, []byte(name))
		if !unicode.IsDigit(rune(first.String()[0])) {
			continue
		}

		want := first
		for unicode.IsDigit(rune(want.String()[0])) {
			want = uuid.NewSHA1(namespace, want[:])
		}

		got, err := DeriveServerID(namespace.String(), name)
		require.NoError(t, err)
		assert.Equal(t, want.String(), got)

		return
	}

	t.Fatal("no name with a digit-first hash found")
}

func TestDeriveServerIDRejectsBadNetworkID(t *testing.T) {
	t.Parallel()

	_, err := DeriveServerID("not-a-uuid", "web")
	require.ErrorContains(t, err, "not a UUID")
}
