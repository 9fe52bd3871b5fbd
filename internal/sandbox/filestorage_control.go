package sandbox

import (
	"context"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"net/http"
	"net/url"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// FileStorageUsage is what the storage back end reports of a share's use.
type FileStorageUsage struct {
	UsedBytes int64 `json:"usedBytes"`
}

// FileStorage returns every file storage as it is, in ID order, rather than as a
// lagging read shows it: the administrator's view that leak checks need.
func (s *Sandbox) FileStorage() []unikorn.FileStorage {
	var all []unikorn.FileStorage

	s.core.Read(func(st *core.Store) {
		all = make([]unikorn.FileStorage, 0, len(fileStorage.Records(st)))
		for _, record := range fileStorage.Sorted(st) {
			all = append(all, record.render())
		}
	})

	return all
}

// SetFileStorageUsage makes the storage back end report usedBytes in use on a share,
// as data written through its mounts would.
func (s *Sandbox) SetFileStorageUsage(id string, usage FileStorageUsage) error {
	// The report reaches readers through the same cache as any other change.
	return s.core.Change(func(st *core.Store, now time.Time) error {
		record, ok := fileStorage.Get(st, id)
		if !ok {
			return errNotFound()
		}

		if record.CapacityBytes == nil {
			return errBadRequest("file storage %s is not made yet, so nothing reports its use", id)
		}

		reported := now.UTC().Truncate(time.Second)
		record.UsedBytes, record.UsageTime = usage.UsedBytes, &reported

		return nil
	})
}

func (s *Sandbox) registerFileStorageControlRoutes() {
	s.core.HandleControl("GET /sandbox/v1/filestorage", func(*http.Request) (*core.Reply, error) {
		return replyOK(s.FileStorage()), nil
	})

	s.core.HandleControl("PUT /sandbox/v1/filestorage/{filestorageID}/usage", func(r *http.Request) (*core.Reply, error) {
		var usage FileStorageUsage
		if err := decodeBody(r, &usage, "usedBytes"); err != nil {
			return nil, err
		}

		if err := s.SetFileStorageUsage(r.PathValue("filestorageID"), usage); err != nil {
			return nil, err
		}

		return replyNoContent(), nil
	})
}

// FileStorage returns every file storage as it is, not as a lagging read shows it.
func (c *ControlClient) FileStorage(ctx context.Context) ([]unikorn.FileStorage, error) {
	var all []unikorn.FileStorage
	err := c.do(ctx, http.MethodGet, "filestorage", nil, &all)

	return all, err
}

// SetFileStorageUsage makes the storage back end report use of a share.
func (c *ControlClient) SetFileStorageUsage(ctx context.Context, id string, usage FileStorageUsage) error {
	return c.do(ctx, http.MethodPut, "filestorage/"+url.PathEscape(id)+"/usage", usage, nil)
}
