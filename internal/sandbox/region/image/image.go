// Package image is region's images (pkg/handler/image): the global catalogue every
// organization boots from, and each organization's own images in a region, imported
// from a URI or made by the cloud from a server (a snapshot, which the server family
// asks for by creating a unikorn.Image). A server that boots from an image holds it.
// Other families read images as unikorn.Image, placed in their organization and
// region; a global image is placed nowhere in particular.
package image

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is region's images.
var Family = core.Family{Name: "image", Register: register}

const (
	// ObjectKind is an image's kind among the objects the sandbox holds.
	ObjectKind = "image"

	rbacImages = "region:images"
)

// record is an organization's image as region's cloud keeps it.
type record struct {
	Image unikorn.Image `json:"image"`
	// OrganizationID owns the image.
	OrganizationID string `json:"organizationId,omitempty"`
	// RegionID is the region the image lives in (see region).
	RegionID string `json:"regionId,omitempty"`
	// URI is where an imported image was imported from; empty for a snapshot.
	URI string `json:"uri,omitempty"`
	// SizeGiB is the size the image shows once the cloud has made it; zero keeps the
	// size it has.
	SizeGiB int `json:"sizeGiB,omitempty"`
	// Deleted says the image is deleted: it shows failed until it is gone.
	Deleted   bool          `json:"deleted,omitempty"`
	Lifecycle core.Schedule `json:"lifecycle,omitempty"`
}

// region is the region the image lives in. An image saved before images knew their
// region is the fixture region's, the only one there was.
func (r *record) region() string {
	if r.RegionID == "" {
		return fixture.RegionID
	}

	return r.RegionID
}

var images = &core.Kind[record]{
	Name: "images",
	Object: func(_ *core.Store, r *record) core.Object {
		metadata := &r.Image.Metadata

		return core.Object{
			Kind: ObjectKind, ID: metadata.ID, Name: metadata.Name, OrganizationID: r.OrganizationID,
			Fixture: metadata.CreationTime.Equal(core.FixtureTime),
		}
	},
}

var (
	ubuntu2404 = unikorn.ImageOS{Kernel: "linux", Family: "debian", Distro: "ubuntu", Version: "24.04", Codename: "noble", Variant: "server"}
	debian12   = unikorn.ImageOS{Kernel: "linux", Family: "debian", Distro: "debian", Version: "12", Codename: "bookworm"}

	// globalImages are visible to every organization, in every region: the catalogue,
	// fixed and never saved.
	globalImages = []unikorn.Image{
		fixtureImage(fixture.ImageUbuntuID, "ubuntu-24.04-amd64", unikorn.ImageSpec{
			Architecture: unikorn.ArchitectureX86_64, SizeGiB: 20, Virtualization: unikorn.VirtualizationVirtualized, OS: ubuntu2404,
		}),
		fixtureImage(fixture.ImageUbuntuGPUID, "ubuntu-24.04-gpu-amd64", unikorn.ImageSpec{
			Architecture: unikorn.ArchitectureX86_64, SizeGiB: 30, Virtualization: unikorn.VirtualizationVirtualized, OS: ubuntu2404,
			GPU: &unikorn.ImageGPU{Vendor: "NVIDIA", Driver: "550.54.15", Models: []string{"L4"}},
		}),
		fixtureImage(fixture.ImageUbuntuArmID, "ubuntu-24.04-arm64", unikorn.ImageSpec{
			Architecture: unikorn.ArchitectureAarch64, SizeGiB: 20, Virtualization: unikorn.VirtualizationVirtualized, OS: ubuntu2404,
		}),
		fixtureImage(fixture.ImageUbuntuMetalID, "ubuntu-24.04-metal", unikorn.ImageSpec{
			Architecture: unikorn.ArchitectureX86_64, SizeGiB: 50, Virtualization: unikorn.VirtualizationBaremetal, OS: ubuntu2404,
		}),
		fixtureImage(fixture.ImageDebianID, "debian-12-amd64", unikorn.ImageSpec{
			Architecture: unikorn.ArchitectureX86_64, SizeGiB: 8, Virtualization: unikorn.VirtualizationAny, OS: debian12,
		}),
		kubernetesImage(fixture.ImageKubernetesID, fixture.KubernetesVersion, unikorn.ArchitectureX86_64),
		kubernetesImage(fixture.ImageKubernetesArmID, fixture.KubernetesVersion, unikorn.ArchitectureAarch64),
		kubernetesImage(fixture.ImageKubernetesOlderID, fixture.KubernetesOlderVersion, unikorn.ArchitectureX86_64),
	}
)

func fixtureImage(id, name string, spec unikorn.ImageSpec) unikorn.Image {
	return unikorn.Image{
		Metadata: unikorn.StaticMetadata{WriteMetadata: unikorn.WriteMetadata{Name: name}, ID: id, CreationTime: core.FixtureTime},
		Spec:     spec,
		Status:   unikorn.ImageStatus{State: unikorn.ImageReady},
	}
}

// kubernetesImage is a Kubernetes node image as an operator publishes it to a region
// (the image property unikorn:package:kubernetes, which region shows as
// softwareVersions.kubernetes): the only images the Kubernetes service offers versions
// and boots nodes from, and ones compute's catalogue leaves out. Region's simulated
// provider describes its Kubernetes image the same way: 20 GiB, virtualized, Ubuntu
// 24.04.
func kubernetesImage(id, version, architecture string) unikorn.Image {
	suffix := map[string]string{unikorn.ArchitectureX86_64: "amd64", unikorn.ArchitectureAarch64: "arm64"}[architecture]

	return fixtureImage(id, "ubuntu-24.04-kubernetes-"+version+"-"+suffix, unikorn.ImageSpec{
		Architecture: architecture, SizeGiB: 20, Virtualization: unikorn.VirtualizationVirtualized, OS: ubuntu2404,
		SoftwareVersions: map[string]string{"kubernetes": version},
	})
}

// sources is what tests told the cloud it finds at image URIs, per server; the
// server's lock guards it.
type sources struct {
	uris map[string]Source
}

var local core.Local[sources]

// handlers serve region's images API (pkg/handler/image).
type handlers struct {
	s       *core.Server
	sources *sources
}

func register(s *core.Server) error {
	core.Register(s, images)

	// The global catalogue first: an ID names a global image before an organization's.
	core.ExposeCatalogue(s, func() []unikorn.Image { return globalImages }, func(i *unikorn.Image) string { return i.Metadata.ID },
		core.View[unikorn.Image, unikorn.Image]{Show: func(i *unikorn.Image) *unikorn.Image { return i }})

	// A deleted image is gone from the cloud already.
	core.Expose(s, images, core.View[record, unikorn.Image]{
		Show: func(r *record) *unikorn.Image {
			if r.Deleted {
				return nil
			}

			return &r.Image
		},
		Place: func(r *record) core.Placement {
			return core.Placement{OrganizationID: r.OrganizationID, RegionID: r.region()}
		},
	})

	h := &handlers{s: s, sources: &sources{uris: map[string]Source{}}}
	local.Set(s, h.sources)

	core.Accept(s, images, h.snapshot)

	s.Handle("GET /api/v1/organizations/{organizationID}/regions/{regionID}/images", h.list)
	s.Handle("POST /api/v1/organizations/{organizationID}/regions/{regionID}/images", h.create)
	s.Handle("DELETE /api/v1/organizations/{organizationID}/regions/{regionID}/images/{imageID}", h.remove)
	s.Handle("GET /api/v2/regions/{regionID}/images", h.listV2)

	s.HandleControl("PUT /sandbox/v1/imagesources", func(r *http.Request) (*core.Reply, error) {
		var source Source
		if err := core.DecodeBody(r, &source, "uri"); err != nil {
			return nil, err
		}

		if err := SetSource(s, source); err != nil {
			return nil, err
		}

		return core.NoContent(), nil
	})

	s.HandleControl("DELETE /sandbox/v1/imagesources", func(*http.Request) (*core.Reply, error) {
		ClearSources(s)

		return core.NoContent(), nil
	})

	s.Advance(advance)

	return nil
}

// Reserved image tags that region stamps on images it creates.
const (
	sourceTag       = "images.unikorn-cloud.org:source"
	organizationTag = "images.unikorn-cloud.org:organization-id"
	reservedPrefix  = "images.unikorn-cloud.org:"
)

// snapshot is an image the cloud makes of a server, owned by its organization in its
// region: the server's image description, pending until it becomes ready after the
// provision delay. Caller tags are kept, except that only region may say where an
// image came from and whose it is.
func (h *handlers) snapshot(image *unikorn.Image, place core.Placement, now time.Time) (string, *record) {
	tags := unikorn.Tags{}

	for _, tag := range image.Metadata.Tags {
		if !strings.HasPrefix(tag.Name, reservedPrefix) {
			tags = append(tags, tag)
		}
	}

	tags = append(tags,
		unikorn.Tag{Name: sourceTag, Value: "snapshot"},
		unikorn.Tag{Name: organizationTag, Value: place.OrganizationID})

	// Image tags are returned sorted by name.
	slices.SortStableFunc(tags, func(a, b unikorn.Tag) int { return strings.Compare(a.Name, b.Name) })

	write := image.Metadata.WriteMetadata
	write.Tags = tags
	// Region keeps no description of an image, a snapshot's neither (region v1.20.0
	// pkg/handler/server client_v2_snapshot.go copies the name and tags alone).
	write.Description = ""

	r := &record{
		Image: unikorn.Image{
			Metadata: core.NewReadMetadata(core.NewResourceID(), write, now).StaticMetadata,
			Spec:     image.Spec,
			Status:   unikorn.ImageStatus{State: unikorn.ImagePending},
		},
		OrganizationID: place.OrganizationID,
		RegionID:       place.RegionID,
		Lifecycle:      importSchedule(now, h.s.ProvisionDelay(), unikorn.ImageReady),
	}

	return r.Image.Metadata.ID, r
}

// advance applies the images' due transitions: an image the cloud has made shows its
// size then.
func advance(st *core.Store, now time.Time) bool {
	changed := false
	records := images.Records(st)

	for id, r := range records {
		for _, to := range r.Lifecycle.Due(now) {
			changed = true

			switch to {
			case core.ToGone:
				delete(records, id)
			case unikorn.ImageReady:
				if r.SizeGiB > 0 {
					r.Image.Spec.SizeGiB = r.SizeGiB
				}

				fallthrough
			default:
				r.Image.Status.State = to
			}
		}
	}

	return changed
}

// Image scopes of the v2 image list.
const (
	scopeOwned     = "owned"
	scopeAvailable = "available"
)

// list is the v1 catalogue: ready images that are global or the organization's own.
func (h *handlers) list(req *core.Request) (*core.Reply, error) {
	if err := core.RequireRegion(req, rbacImages, core.OpRead); err != nil {
		return nil, err
	}

	organizationID := req.PathValue("organizationID")

	images := selectImages(req.Store, req.PathValue("regionID"), func(image *unikorn.Image, owner string) bool {
		return image.Status.State == unikorn.ImageReady && (owner == "" || owner == organizationID)
	})

	return &core.Reply{Status: http.StatusOK, Body: images, CacheControl: core.CatalogueCacheControl}, nil
}

// listV2 selects by organization, scope and status. Without organizationID only global
// images are listed; organizations the caller is not in are dropped silently.
func (h *handlers) listV2(req *core.Request) (*core.Reply, error) {
	values := req.URL.Query()

	scope := values.Get("scope")
	if scope == "" {
		scope = scopeAvailable
	}

	if scope != scopeOwned && scope != scopeAvailable {
		return nil, core.BadRequest("parameter \"scope\" in query has an error: value %q is not one of the allowed values", scope)
	}

	states := values["status"]
	for _, state := range states {
		if !slices.Contains([]string{unikorn.ImagePending, unikorn.ImageCreating, unikorn.ImageReady, unikorn.ImageFailed}, state) {
			return nil, core.BadRequest("parameter \"status\" in query has an error: value %q is not one of the allowed values", state)
		}
	}

	// No organization lets the caller see the region, so it does not exist for it.
	if _, ok := core.Visible[unikorn.Region](req.Store, req.Caller, req.PathValue("regionID")); !ok || len(req.Caller.Organizations()) == 0 {
		return nil, core.NotFound()
	}

	var organizationIDs []string

	for _, id := range values["organizationID"] {
		if req.Caller.IsMember(id) {
			organizationIDs = append(organizationIDs, id)
		}
	}

	images := selectImages(req.Store, req.PathValue("regionID"), func(image *unikorn.Image, owner string) bool {
		owned := owner != "" && slices.Contains(organizationIDs, owner)
		inScope := owned || (scope == scopeAvailable && owner == "")

		return inScope && core.OneOf(states, image.Status.State)
	})

	return &core.Reply{Status: http.StatusOK, Body: images, CacheControl: "no-cache"}, nil
}

// selectImages returns the global images and the region's organization images that
// keep selects, sorted by name. Every region offers the global images.
func selectImages(st *core.Store, regionID string, keep func(image *unikorn.Image, owner string) bool) []unikorn.Image {
	found := []unikorn.Image{}

	for i := range globalImages {
		if keep(&globalImages[i], "") {
			found = append(found, globalImages[i])
		}
	}

	for _, r := range images.Sorted(st) {
		if r.region() == regionID && keep(&r.Image, r.OrganizationID) {
			found = append(found, r.Image)
		}
	}

	slices.SortStableFunc(found, func(a, b unikorn.Image) int {
		return strings.Compare(a.Metadata.Name, b.Metadata.Name)
	})

	return found
}
