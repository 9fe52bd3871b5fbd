package image

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Outcomes of reading and importing the image at a URI.
const (
	// SourceReady is a raw image that imports: the default.
	SourceReady = "ready"
	// SourceFailed is a raw image whose import the cloud accepts and then fails.
	SourceFailed = "failed"
	// SourceUnreadable is a URI region cannot read: the create is refused.
	SourceUnreadable = "unreadable"
	// SourceNotRaw is a file without a master boot record, such as a qcow2
	// image: the create is refused.
	SourceNotRaw = "not-raw"
)

// defaultImportedSizeGiB is the size an imported image shows once ready, unless its
// source says otherwise: region reports the image's virtual size rounded up to GiB.
const defaultImportedSizeGiB = 4

// Source says what the sandbox's cloud finds at an image URI.
type Source struct {
	URI string `json:"uri"`
	// Outcome is one of SourceReady (when empty), SourceFailed,
	// SourceUnreadable and SourceNotRaw.
	Outcome string `json:"outcome,omitempty"`
	// SizeGiB is the image's size once imported; zero means 4.
	SizeGiB int `json:"sizeGiB,omitempty"`
}

// SetSource says what imports from source.URI find there from now on. Imports already
// under way keep the outcome they started with.
func SetSource(s *core.Server, source Source) error {
	if source.Outcome == "" {
		source.Outcome = SourceReady
	}

	if !slices.Contains([]string{SourceReady, SourceFailed, SourceUnreadable, SourceNotRaw}, source.Outcome) {
		return core.BadRequest("image source outcome %q is not one of %s, %s, %s, %s", source.Outcome,
			SourceReady, SourceFailed, SourceUnreadable, SourceNotRaw)
	}

	if source.URI == "" || source.SizeGiB < 0 {
		return core.BadRequest("an image source needs a uri and a size that is not negative")
	}

	sources := local.Get(s)
	s.Read(func(*core.Store) { sources.uris[source.URI] = source })

	return nil
}

// ClearSources forgets every image source: every URI holds a raw image again.
func ClearSources(s *core.Server) {
	sources := local.Get(s)
	s.Read(func(*core.Store) { sources.uris = map[string]Source{} })
}

// at is what region finds reading uri, or the error region answers the create with
// (pkg/handler/image validateImage). Callers hold the server's lock.
func (f *sources) at(uri string) (Source, error) {
	parsed, err := url.Parse(uri)
	if err != nil {
		// Region cannot even build the request: an internal error.
		return Source{}, core.ServerError()
	}

	source, known := f.uris[uri]
	if !known {
		source = Source{URI: uri, Outcome: SourceReady}
	}

	// Region's HTTP client speaks nothing but http and https.
	if (parsed.Scheme != "http" && parsed.Scheme != "https") || source.Outcome == SourceUnreadable {
		return Source{}, core.Unprocessable("Image read failed, please ensure the URL is correct")
	}

	if source.Outcome == SourceNotRaw {
		return Source{}, core.Unprocessable("Image does not contain a valid master boot record, ensure the image is in raw format")
	}

	if source.SizeGiB == 0 {
		source.SizeGiB = defaultImportedSizeGiB
	}

	return source, nil
}

// importSchedule is the path of an image the cloud makes, by import or snapshot: the
// cloud picks it up halfway through the delay and finishes, as outcome, at its end.
func importSchedule(now time.Time, delay time.Duration, outcome string) core.Schedule {
	return core.Schedule{
		{To: unikorn.ImageCreating, Due: now.Add(delay / 2)},
		{To: outcome, Due: now.Add(delay)},
	}
}

// createRequired is the required part of region `imageCreate`.
var createRequired = core.RequiredWith("spec", "spec.uri", "spec.architecture", "spec.virtualization",
	"spec.os", "spec.os.kernel", "spec.os.family", "spec.os.distro", "spec.os.version",
	"spec.gpu?.vendor", "spec.gpu?.driver")

// semverPattern is core `semver`, the form of every software version.
var semverPattern = regexp.MustCompile(`^v\d+\.\d+\.\d+$`)

// validateCreateSpec checks the enums and patterns of region `imageCreateSpec`,
// as the OpenAPI validator does before the handler runs.
func validateCreateSpec(spec unikorn.ImageCreateSpec) error {
	enums := []struct {
		pointer, value string
		allowed        []string
	}{
		{"/spec/architecture", spec.Architecture, []string{unikorn.ArchitectureX86_64, unikorn.ArchitectureAarch64}},
		{"/spec/virtualization", spec.Virtualization, []string{unikorn.VirtualizationVirtualized, unikorn.VirtualizationBaremetal, unikorn.VirtualizationAny}},
		{"/spec/os/kernel", spec.OS.Kernel, []string{"linux"}},
	}

	if spec.GPU != nil {
		enums = append(enums, struct {
			pointer, value string
			allowed        []string
		}{"/spec/gpu/vendor", spec.GPU.Vendor, []string{"NVIDIA", "AMD"}})
	}

	for _, enum := range enums {
		if !slices.Contains(enum.allowed, enum.value) {
			return core.BadRequest("request body has an error: doesn't match schema: Error at %q: value %q is not one of the allowed values", enum.pointer, enum.value)
		}
	}

	for name, version := range spec.SoftwareVersions {
		if !semverPattern.MatchString(version) {
			return core.BadRequest("request body has an error: doesn't match schema: Error at \"/spec/softwareVersions/%s\": string doesn't match the regular expression %q", name, semverPattern.String())
		}
	}

	return nil
}

// importTags are the caller's tags with region's own provenance and ownership over
// them (pkg/handler/image GenerateTags), sorted by name as region returns them.
func importTags(write unikorn.Tags, source, organizationID string) unikorn.Tags {
	tags := unikorn.Tags{}

	for _, tag := range write {
		if tag.Name != sourceTag && tag.Name != organizationTag {
			tags = append(tags, tag)
		}
	}

	tags = append(tags,
		unikorn.Tag{Name: sourceTag, Value: source},
		unikorn.Tag{Name: organizationTag, Value: organizationID})

	slices.SortStableFunc(tags, func(a, b unikorn.Tag) int { return strings.Compare(a.Name, b.Name) })

	return tags
}

// create imports an image for the organization. Region answers 200 with the image as
// the cloud first describes it: pending, of no size yet.
func (h *handlers) create(req *core.Request) (*core.Reply, error) {
	var body unikorn.ImageCreate
	if err := core.DecodeBody(req.Request, &body, createRequired...); err != nil {
		return nil, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := validateCreateSpec(body.Spec); err != nil {
		return nil, err
	}

	if err := core.RequireRegion(req, rbacImages, core.OpCreate); err != nil {
		return nil, err
	}

	source, err := h.sources.at(body.Spec.URI)
	if err != nil {
		return nil, err
	}

	organizationID := req.PathValue("organizationID")

	write := body.Metadata
	write.Tags = importTags(body.Metadata.Tags, "import", organizationID)
	// Region keeps no description of an image: its provider's image has none, so the
	// description asked for is dropped (region v1.20.0 pkg/handler/image CreateImage).
	write.Description = ""

	spec := body.Spec.ImageSpec()

	image := &record{
		Image: unikorn.Image{
			Metadata: core.NewReadMetadata(core.NewResourceID(), write, req.Now).StaticMetadata,
			Spec:     spec,
			Status:   unikorn.ImageStatus{State: unikorn.ImagePending},
		},
		OrganizationID: organizationID,
		RegionID:       req.PathValue("regionID"),
		URI:            body.Spec.URI,
		SizeGiB:        source.SizeGiB,
		Lifecycle:      importSchedule(req.Now, h.s.ProvisionDelay(), importOutcome(source)),
	}

	images.Put(req.Store, image.Image.Metadata.ID, image)

	return core.OK(image.Image), nil
}

// importOutcome is the state an import from source ends in.
func importOutcome(source Source) string {
	if source.Outcome == SourceFailed {
		return unikorn.ImageFailed
	}

	return unikorn.ImageReady
}

// remove deletes one of the organization's own images in the region
// (pkg/handler/image DeleteImage). An image a server boots from (which holds it) is
// refused with region's plain conflict; a deleted one shows failed, as region's image
// cache marks it, until the cloud has let it go, and deleting it again is not found,
// as the cloud says.
func (h *handlers) remove(req *core.Request) (*core.Reply, error) {
	if err := core.RequireRegion(req, rbacImages, core.OpDelete); err != nil {
		return nil, err
	}

	id := req.PathValue("imageID")

	r, ok := images.Get(req.Store, id)
	if !ok || r.OrganizationID != req.PathValue("organizationID") || r.region() != req.PathValue("regionID") || r.Deleted {
		return nil, core.NotFound()
	}

	if core.Held(req.Store, core.RefTo[unikorn.Image](id)) {
		return nil, core.Conflict()
	}

	r.Deleted = true
	r.Image.Status.State = unikorn.ImageFailed
	r.Lifecycle = core.DeprovisionSchedule(req.Now, h.s.DeprovisionDelay())

	return core.Accepted(nil), nil
}
