package sandbox

import (
	"context"
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
	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()

	all := make([]unikorn.FileStorage, 0, len(s.world.FileStorage))
	for _, record := range byID(s.world.FileStorage) {
		all = append(all, record.render())
	}

	return all
}

// SetFileStorageUsage makes the storage back end report usedBytes in use on a share,
// as data written through its mounts would.
func (s *Sandbox) SetFileStorageUsage(id string, usage FileStorageUsage) error {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()

	// The report reaches readers through the same cache as any other change.
	before := s.lag.snapshot(s.world)
	defer s.lag.record(before, s.world, s.now())

	record, ok := s.world.FileStorage[id]
	if !ok {
		return errNotFound()
	}

	if record.CapacityBytes == nil {
		return errBadRequest("file storage %s is not made yet, so nothing reports its use", id)
	}

	reported := s.now().UTC().Truncate(time.Second)
	record.UsedBytes, record.UsageTime = usage.UsedBytes, &reported
	s.changed()

	return s.saveLocked()
}

func (s *Sandbox) registerFileStorageControlRoutes() {
	s.handleControl("GET /sandbox/v1/filestorage", func(*http.Request) (*reply, error) {
		return replyOK(s.FileStorage()), nil
	})

	s.handleControl("PUT /sandbox/v1/filestorage/{filestorageID}/usage", func(r *http.Request) (*reply, error) {
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
