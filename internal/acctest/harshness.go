package acctest

import (
	"context"
	"hash/fnv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// ProductionReadLag is the read lag of Production: long enough that a provider which
// trusts a read right after a write fails, short enough for quick tests.
const ProductionReadLag = 2 * time.Second

// harshness is how much of production's unkindness the sandbox shows.
type harshness struct {
	readLag    time.Duration
	seed       uint64
	visibility bool
	// backend and quotas are not harshness but ride along, so that one Option list
	// sets up a test.
	backend Backend
	quotas  map[string]int
}

// Option makes the sandbox of New harsher (or kinder).
type Option func(*harshness)

// WithReadLag makes reads trail each write by up to d (sandbox.Options.ReadLag). The
// default is no lag.
func WithReadLag(d time.Duration) Option {
	return func(h *harshness) { h.readLag = d }
}

// WithSeed fixes the random sequence of read lags, so a failure can be replayed.
func WithSeed(seed uint64) Option {
	return func(h *harshness) { h.seed = seed }
}

// WithVisibility says whether lists drop what the token may not read, as region's do
// (the default), or flatter the caller.
func WithVisibility(on bool) Option {
	return func(h *harshness) { h.visibility = on }
}

// WithQuota sets the fixture organization's quota of kind to n (sandbox.Options.Quotas),
// as an operator would: how a test switches on a quota that limits nothing by default
// (`volume`) or makes a small one to fill. Against a real Unikorn it is ignored.
func WithQuota(kind string, n int) Option {
	return func(h *harshness) {
		if h.quotas == nil {
			h.quotas = map[string]int{}
		}

		h.quotas[kind] = n
	}
}

// Production turns on everything production does to clients: read lag of
// ProductionReadLag and visibility, with a seed derived from the test's name so that
// each test is reproducible and tests differ from each other.
func Production(t *testing.T) Option {
	hash := fnv.New64a()
	_, _ = hash.Write([]byte(t.Name()))
	seed := hash.Sum64()

	return func(h *harshness) {
		h.readLag = ProductionReadLag
		h.seed = seed
		h.visibility = true
	}
}

// SetReadLag changes the sandbox's read lag while the test runs; it applies to writes
// made afterwards.
func (e *Environment) SetReadLag(t *testing.T, d time.Duration) {
	t.Helper()
	e.SkipUnlessSandbox(t)

	require.NoError(t, e.control.UpdateSettings(context.Background(), sandbox.Settings{ReadLag: d.String()}))
}
