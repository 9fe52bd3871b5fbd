package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"net/http"
	"slices"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Image scopes of the v2 image list.
const (
	scopeOwned     = "owned"
	scopeAvailable = "available"
)

// listImages is the v1 catalogue: ready images that are global or the organization's own.
func (s *Sandbox) listImages(req *core.Request) (*core.Reply, error) {
	if err := core.RequireRegion(req, rbacImages, opRead); err != nil {
		return nil, err
	}

	organizationID := req.PathValue("organizationID")

	images := s.world.selectImages(req.PathValue("regionID"), func(image *unikorn.Image, owner string) bool {
		return image.Status.State == unikorn.ImageReady && (owner == "" || owner == organizationID)
	})

	return &core.Reply{Status: http.StatusOK, Body: images, CacheControl: core.CatalogueCacheControl}, nil
}

// listImagesV2 selects by organization, scope and status. Without organizationID only
// global images are listed; organizations the caller is not in are dropped silently.
func (s *Sandbox) listImagesV2(req *core.Request) (*core.Reply, error) {
	values := req.URL.Query()

	scope := values.Get("scope")
	if scope == "" {
		scope = scopeAvailable
	}

	if scope != scopeOwned && scope != scopeAvailable {
		return nil, errBadRequest("parameter \"scope\" in query has an error: value %q is not one of the allowed values", scope)
	}

	states := values["status"]
	for _, state := range states {
		if !slices.Contains([]string{unikorn.ImagePending, unikorn.ImageCreating, unikorn.ImageReady, unikorn.ImageFailed}, state) {
			return nil, errBadRequest("parameter \"status\" in query has an error: value %q is not one of the allowed values", state)
		}
	}

	// No organization lets the caller see the region, so it does not exist for it.
	if len(req.Caller.Organizations()) == 0 || !regionVisible(req, req.PathValue("regionID")) {
		return nil, errNotFound()
	}

	var organizationIDs []string

	for _, id := range values["organizationID"] {
		if req.Caller.IsMember(id) {
			organizationIDs = append(organizationIDs, id)
		}
	}

	images := s.world.selectImages(req.PathValue("regionID"), func(image *unikorn.Image, owner string) bool {
		owned := owner != "" && slices.Contains(organizationIDs, owner)
		inScope := owned || (scope == scopeAvailable && owner == "")

		return inScope && oneOf(states, image.Status.State)
	})

	return &core.Reply{Status: http.StatusOK, Body: images, CacheControl: "no-cache"}, nil
}

// selectImages returns the global images and the region's organization images that
// keep selects, sorted by name. Every region offers the global images.
func (w *world) selectImages(regionID string, keep func(image *unikorn.Image, owner string) bool) []unikorn.Image {
	images := []unikorn.Image{}

	for i := range globalImages {
		if keep(&globalImages[i], "") {
			images = append(images, globalImages[i])
		}
	}

	for _, record := range byID(w.Images) {
		if record.inRegion(regionID) && keep(&record.Image, record.OrganizationID) {
			images = append(images, record.Image)
		}
	}

	slices.SortStableFunc(images, func(a, b unikorn.Image) int {
		return strings.Compare(a.Metadata.Name, b.Metadata.Name)
	})

	return images
}

// findImage returns an image and its owning organization ("" for global images). A
// deleted image is gone from the cloud already.
func (w *world) findImage(id string) (*unikorn.Image, string, bool) {
	for i := range globalImages {
		if globalImages[i].Metadata.ID == id {
			return &globalImages[i], "", true
		}
	}

	if record, ok := w.Images[id]; ok && !record.Deleted {
		return &record.Image, record.OrganizationID, true
	}

	return nil, "", false
}
