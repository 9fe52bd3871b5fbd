// Package storage is region's file storage (pkg/handler/storage): NFS shares of a
// project, charged by size to the `filestorage` quota, exported to the networks they
// are attached to, and the classes they are made of. Storage holds in use every network
// it is exported to, or still being removed from.
package storage

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is region's file storage.
var Family = core.Family{Name: "storage", Register: register}

const (
	// ObjectKind is file storage's kind among the objects the sandbox holds.
	ObjectKind = "fileStorage"
	// AllocationKind is the kind region charges file storage's quota under.
	AllocationKind = "filestorages.region.unikorn-cloud.org"

	rbacNetworks    = "region:networks:v2"
	rbacFileStorage = "region:filestorage:v2"
)

var fileStorage = &core.Kind[record]{
	Name:       "fileStorage",
	Noun:       "region file storage",
	Project:    func(r *record) *unikorn.ProjectScopedMetadata { return &r.Metadata },
	ObjectKind: ObjectKind,
	// Storage exported to a network, or still being removed from it, holds it.
	References: func(r *record) []core.Ref {
		refs := make([]core.Ref, 0, len(r.Attachments))
		for _, a := range r.Attachments {
			refs = append(refs, core.RefTo[unikorn.Network](a.NetworkID))
		}

		return refs
	},
}

// handlers serve region's file storage API (pkg/handler/storage).
type handlers struct {
	s *core.Server
}

func register(s *core.Server) error {
	core.Register(s, fileStorage)

	h := &handlers{s: s}
	s.Handle("GET /api/v2/filestorage", h.list)
	s.Handle("POST /api/v2/filestorage", h.create)
	s.Handle("GET /api/v2/filestorage/{filestorageID}", h.get)
	s.Handle("PUT /api/v2/filestorage/{filestorageID}", h.update)
	s.Handle("DELETE /api/v2/filestorage/{filestorageID}", h.delete)
	s.Handle("GET /api/v2/filestorageclasses", h.listClasses)

	registerControlRoutes(s)
	s.Advance(advance)

	return nil
}
