package volumes

import (
	"maps"
	"net/http"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// File is a file a guest wrote to a volume: what shows that a volume's data outlived
// the server that wrote it.
type File struct {
	Path     string `json:"path"`
	Contents string `json:"contents"`
}

// All returns every volume as it is, in ID order, rather than as a lagging read shows
// it: the administrator's view that leak checks need.
func All(s *core.Server) []unikorn.Volume {
	var all []unikorn.Volume

	s.Read(func(st *core.Store) {
		all = make([]unikorn.Volume, 0, len(volumes.Records(st)))
		for _, r := range volumes.Sorted(st) {
			all = append(all, *r.render())
		}
	})

	return all
}

// WriteFile writes a file to a volume as the guest of the server it is attached to
// would: only a volume attached to a server takes one.
func WriteFile(s *core.Server, id string, file File) error {
	return s.Change(func(st *core.Store, _ time.Time) error {
		r, ok := volumes.Get(st, id)
		if !ok {
			return core.NotFound()
		}

		if r.Claim == nil || r.Claim.Status != unikorn.ProvisioningProvisioned {
			return core.BadRequest("volume %s is attached to no server, so no guest can write to it", id)
		}

		if r.Files == nil {
			r.Files = map[string]string{}
		}

		r.Files[file.Path] = file.Contents

		return nil
	})
}

// Files returns the files guests wrote to a volume, by path.
func Files(s *core.Server, id string) (map[string]string, error) {
	var (
		files map[string]string
		found bool
	)

	s.Read(func(st *core.Store) {
		var r *record
		if r, found = volumes.Get(st, id); found {
			files = maps.Clone(r.Files)
		}
	})

	if !found {
		return nil, core.NotFound()
	}

	if files == nil {
		files = map[string]string{}
	}

	return files, nil
}

func registerControlRoutes(s *core.Server) {
	s.HandleControl("GET /sandbox/v1/volumes", func(*http.Request) (*core.Reply, error) {
		return core.OK(All(s)), nil
	})

	s.HandleControl("GET /sandbox/v1/volumes/{volumeID}/files", func(r *http.Request) (*core.Reply, error) {
		files, err := Files(s, r.PathValue("volumeID"))
		if err != nil {
			return nil, err
		}

		return core.OK(files), nil
	})

	s.HandleControl("POST /sandbox/v1/volumes/{volumeID}/files", func(r *http.Request) (*core.Reply, error) {
		var file File
		if err := core.DecodeBody(r, &file, "path", "contents"); err != nil {
			return nil, err
		}

		if err := WriteFile(s, r.PathValue("volumeID"), file); err != nil {
			return nil, err
		}

		return core.NoContent(), nil
	})
}
