package storage

import (
	"net/http"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Usage is what the storage back end reports of a share's use.
type Usage struct {
	UsedBytes int64 `json:"usedBytes"`
}

// All returns every file storage as it is, in ID order, rather than as a lagging read
// shows it: the administrator's view that leak checks need.
func All(s *core.Server) []unikorn.FileStorage {
	var all []unikorn.FileStorage

	s.Read(func(st *core.Store) {
		all = make([]unikorn.FileStorage, 0, len(fileStorage.Records(st)))
		for _, r := range fileStorage.Sorted(st) {
			all = append(all, r.render())
		}
	})

	return all
}

// SetUsage makes the storage back end report usedBytes in use on a share, as data
// written through its mounts would.
func SetUsage(s *core.Server, id string, usage Usage) error {
	// The report reaches readers through the same cache as any other change.
	return s.Change(func(st *core.Store, now time.Time) error {
		r, ok := fileStorage.Get(st, id)
		if !ok {
			return core.NotFound()
		}

		if r.CapacityBytes == nil {
			return core.BadRequest("file storage %s is not made yet, so nothing reports its use", id)
		}

		reported := now.UTC().Truncate(time.Second)
		r.UsedBytes, r.UsageTime = usage.UsedBytes, &reported

		return nil
	})
}

func registerControlRoutes(s *core.Server) {
	s.HandleControl("GET /sandbox/v1/filestorage", func(*http.Request) (*core.Reply, error) {
		return core.OK(All(s)), nil
	})

	s.HandleControl("PUT /sandbox/v1/filestorage/{filestorageID}/usage", func(r *http.Request) (*core.Reply, error) {
		var usage Usage
		if err := core.DecodeBody(r, &usage, "usedBytes"); err != nil {
			return nil, err
		}

		if err := SetUsage(s, r.PathValue("filestorageID"), usage); err != nil {
			return nil, err
		}

		return core.NoContent(), nil
	})
}
