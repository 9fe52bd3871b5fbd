package identity

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJoinedLeavesTheGroupsSideAlone(t *testing.T) {
	t.Parallel()

	// In g1 (named), g2 (from the group's side); names g1 and g3 now.
	assert.Equal(t, []string{"g1", "g2", "g3"}, Joined([]string{"g1", "g2"}, []string{"g1"}, []string{"g1", "g3"}))
	// No longer names g1: it leaves g1, and stays in g2.
	assert.Equal(t, []string{"g2"}, Joined([]string{"g1", "g2"}, []string{"g1"}, nil))
	// A group it names that put it in from its side too stays.
	assert.Equal(t, []string{"g2"}, Joined([]string{"g2"}, nil, []string{"g2"}))
}

func TestNamedShowsOnlyWhatTheAccountJoined(t *testing.T) {
	t.Parallel()

	assert.Equal(t, []string{"g1"}, Named([]string{"g1", "g2"}, []string{"g1", "g3"}))
	assert.Equal(t, []string{}, Named([]string{"g2"}, nil))
}
