package cluster

import (
	"encoding/json"
	"maps"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The service's records, as its Kubernetes API server holds them: one resource per
// cluster and per cluster manager.

// cluster is a KubernetesCluster resource: its metadata, its spec as the service
// stores it, the transitions ahead of it, the quota it holds, and the credentials its
// kubeconfig carries once it has one.
type cluster struct {
	Metadata     unikorn.ProjectScopedMetadata `json:"metadata"`
	Spec         Spec                          `json:"spec"`
	Lifecycle    core.Schedule                 `json:"lifecycle,omitempty"`
	AllocationID string                        `json:"allocationId,omitempty"`
	Credentials  *Credentials                  `json:"credentials,omitempty"`
}

// read is the cluster as the service shows it.
func (c *cluster) read() unikorn.KubernetesCluster {
	return unikorn.KubernetesCluster{Metadata: c.Metadata, Spec: Read(&c.Spec)}
}

// manager is a ClusterManager resource.
type manager struct {
	Metadata  unikorn.ProjectScopedMetadata `json:"metadata"`
	Bundle    string                        `json:"bundle"`
	Lifecycle core.Schedule                 `json:"lifecycle,omitempty"`
}

// records are everything the service holds, saved in its section of the sandbox's
// state.
type records struct {
	Clusters map[string]*cluster `json:"clusters"`
	Managers map[string]*manager `json:"managers"`
}

func newRecords() *records {
	return &records{Clusters: map[string]*cluster{}, Managers: map[string]*manager{}}
}

// The kinds the service's records are known by to the read lag's cache.
const (
	clustersKind = "kubernetes.clusters"
	managersKind = "kubernetes.clustermanagers"
)

// encoded is every record of each kind as JSON, by ID, for the cache to compare.
func (r *records) encoded() map[string]map[string][]byte {
	return map[string]map[string][]byte{clustersKind: encodeAll(r.Clusters), managersKind: encodeAll(r.Managers)}
}

func encodeAll[R any](records map[string]*R) map[string][]byte {
	encoded := make(map[string][]byte, len(records))

	for id, record := range records {
		data, err := json.Marshal(record)
		if err != nil {
			panic(err) // The records are saved as JSON, so every one encodes.
		}

		encoded[id] = data
	}

	return encoded
}

// view is the records as a cache that trails them shows them: what it still shows of
// a lagging record (nil for one it has not seen) in place of the record.
func (r *records) view(cache Cache) *records {
	if cache == nil {
		return r
	}

	return &records{
		Clusters: viewOf(r.Clusters, cache.Stale(clustersKind)),
		Managers: viewOf(r.Managers, cache.Stale(managersKind)),
	}
}

func viewOf[R any](records map[string]*R, stale map[string][]byte) map[string]*R {
	if len(stale) == 0 {
		return records
	}

	view := maps.Clone(records)

	for id, data := range stale {
		if data == nil {
			delete(view, id)

			continue
		}

		old := new(R)
		if err := json.Unmarshal(data, old); err != nil {
			panic(err) // encodeAll wrote it.
		}

		view[id] = old
	}

	return view
}

// Cache is the informer cache the service's handlers read through: a read may miss a
// record just made, or show one as it was before a change, for up to the read lag.
// Writes act on the records themselves.
type Cache interface {
	Trails() bool
	Record(kind string, before, after map[string][]byte)
	Stale(kind string) map[string][]byte
}
