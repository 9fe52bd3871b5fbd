package acctest

import (
	"testing"
)

// Backend is one of the provider's instance back ends (its instance_api). The
// instance's acceptance tests run for each, as one matrix, because the Terraform
// surface must not tell them apart.
type Backend struct {
	// InstanceAPI is the provider's instance_api for this leg.
	InstanceAPI string
}

// The two back ends: compute's public instance API, which any project member may
// call, and region's server and identity's allocation APIs, which need service rights.
var (
	ComputeBackend = Backend{InstanceAPI: "compute"}
	RegionBackend  = Backend{InstanceAPI: "region"}
)

// Backends are the legs of the matrix, in the order they run.
func Backends() []Backend {
	return []Backend{ComputeBackend, RegionBackend}
}

// WithBackend points the provider of New at a back end; the default is RegionBackend.
func WithBackend(backend Backend) Option {
	return func(h *harshness) { h.backend = backend }
}

// ForEachBackend runs test once per back end, each in a subtest named after it with
// an environment of its own. The test runs in parallel with the package's other
// parallel tests, as each leg has a sandbox of its own and spends most of its time
// waiting on it; a leg that calls t.Parallel (resource.ParallelTest does) runs beside
// the other leg too. So the caller must not call t.Parallel itself.
func ForEachBackend(t *testing.T, test func(t *testing.T, env *Environment), options ...Option) {
	t.Helper()
	t.Parallel()

	for _, backend := range Backends() {
		t.Run(backend.InstanceAPI, func(t *testing.T) {
			test(t, New(t, append(options, WithBackend(backend))...))
		})
	}
}
