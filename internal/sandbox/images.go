package sandbox

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// An organization imports an image into a region from the URI of a raw disk image
// (region's pkg/handler/image CreateImage). Region reads the image's first sector
// before it accepts the import; the cloud then imports it in the background, and the
// image goes pending, creating, then ready or failed. The sandbox's cloud reaches no
// network: what it finds at a URI is an ImageSource, which tests set through the
// control API; any other http or https URI holds a raw image that imports.

// Outcomes of reading and importing the image at a URI.
const (
	// ImageSourceReady is a raw image that imports: the default.
	ImageSourceReady = "ready"
	// ImageSourceFailed is a raw image whose import the cloud accepts and then fails.
	ImageSourceFailed = "failed"
	// ImageSourceUnreadable is a URI region cannot read: the create is refused.
	ImageSourceUnreadable = "unreadable"
	// ImageSourceNotRaw is a file without a master boot record, such as a qcow2
	// image: the create is refused.
	ImageSourceNotRaw = "not-raw"
)

// defaultImportedSizeGiB is the size an imported image shows once ready, unless its
// source says otherwise: region reports the image's virtual size rounded up to GiB.
const defaultImportedSizeGiB = 4

// ImageSource says what the sandbox's cloud finds at an image URI.
type ImageSource struct {
	URI string `json:"uri"`
	// Outcome is one of ImageSourceReady (when empty), ImageSourceFailed,
	// ImageSourceUnreadable and ImageSourceNotRaw.
	Outcome string `json:"outcome,omitempty"`
	// SizeGiB is the image's size once imported; zero means 4.
	SizeGiB int `json:"sizeGiB,omitempty"`
}

// SetImageSource says what imports from source.URI find there from now on. Imports
// already under way keep the outcome they started with.
func (s *Sandbox) SetImageSource(source ImageSource) error {
	if source.Outcome == "" {
		source.Outcome = ImageSourceReady
	}

	if !slices.Contains([]string{ImageSourceReady, ImageSourceFailed, ImageSourceUnreadable, ImageSourceNotRaw}, source.Outcome) {
		return errBadRequest("image source outcome %q is not one of %s, %s, %s, %s", source.Outcome,
			ImageSourceReady, ImageSourceFailed, ImageSourceUnreadable, ImageSourceNotRaw)
	}

	if source.URI == "" || source.SizeGiB < 0 {
		return errBadRequest("an image source needs a uri and a size that is not negative")
	}

	s.mu.Lock()
	defer s.mu.Unlock()

	s.imageSources[source.URI] = source

	return nil
}

// ClearImageSources forgets every image source: every URI holds a raw image again.
func (s *Sandbox) ClearImageSources() {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.imageSources = map[string]ImageSource{}
}

// imageSourceAt is what region finds reading uri, or the error region answers the
// create with (pkg/handler/image validateImage). Callers hold mu.
func (s *Sandbox) imageSourceAt(uri string) (ImageSource, error) {
	parsed, err := url.Parse(uri)
	if err != nil {
		// Region cannot even build the request: an internal error.
		return ImageSource{}, errServer()
	}

	source, known := s.imageSources[uri]
	if !known {
		source = ImageSource{URI: uri, Outcome: ImageSourceReady}
	}

	// Region's HTTP client speaks nothing but http and https.
	if (parsed.Scheme != "http" && parsed.Scheme != "https") || source.Outcome == ImageSourceUnreadable {
		return ImageSource{}, errUnprocessable("Image read failed, please ensure the URL is correct")
	}

	if source.Outcome == ImageSourceNotRaw {
		return ImageSource{}, errUnprocessable("Image does not contain a valid master boot record, ensure the image is in raw format")
	}

	if source.SizeGiB == 0 {
		source.SizeGiB = defaultImportedSizeGiB
	}

	return source, nil
}

// importSchedule is the path of an image the cloud makes, by import or snapshot: the
// cloud picks it up halfway through the delay and finishes, as outcome, at its end.
func importSchedule(now time.Time, delay time.Duration, outcome string) schedule {
	return schedule{
		{To: unikorn.ImageCreating, Due: now.Add(delay / 2)},
		{To: outcome, Due: now.Add(delay)},
	}
}

// imageCreateRequired is the required part of region `imageCreate`.
var imageCreateRequired = requiredWith("spec", "spec.uri", "spec.architecture", "spec.virtualization",
	"spec.os", "spec.os.kernel", "spec.os.family", "spec.os.distro", "spec.os.version",
	"spec.gpu?.vendor", "spec.gpu?.driver")

// semverPattern is core `semver`, the form of every software version.
var semverPattern = regexp.MustCompile(`^v\d+\.\d+\.\d+$`)

// validateImageCreateSpec checks the enums and patterns of region `imageCreateSpec`,
// as the OpenAPI validator does before the handler runs.
func validateImageCreateSpec(spec unikorn.ImageCreateSpec) error {
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
			return errBadRequest("request body has an error: doesn't match schema: Error at %q: value %q is not one of the allowed values", enum.pointer, enum.value)
		}
	}

	for name, version := range spec.SoftwareVersions {
		if !semverPattern.MatchString(version) {
			return errBadRequest("request body has an error: doesn't match schema: Error at \"/spec/softwareVersions/%s\": string doesn't match the regular expression %q", name, semverPattern.String())
		}
	}

	return nil
}

// importTags are the caller's tags with region's own provenance and ownership over
// them (pkg/handler/image GenerateTags), sorted by name as region returns them.
func importTags(write unikorn.Tags, source, organizationID string) unikorn.Tags {
	tags := unikorn.Tags{}

	for _, tag := range write {
		if tag.Name != imageSourceTag && tag.Name != imageOrganizationTag {
			tags = append(tags, tag)
		}
	}

	tags = append(tags,
		unikorn.Tag{Name: imageSourceTag, Value: source},
		unikorn.Tag{Name: imageOrganizationTag, Value: organizationID})

	slices.SortStableFunc(tags, func(a, b unikorn.Tag) int { return strings.Compare(a.Name, b.Name) })

	return tags
}

// createImage imports an image for the organization. Region answers 200 with the image
// as the cloud first describes it: pending, of no size yet.
func (s *Sandbox) createImage(req *request) (*reply, error) {
	var body unikorn.ImageCreate
	if err := decodeBody(req.Request, &body, imageCreateRequired...); err != nil {
		return nil, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := validateImageCreateSpec(body.Spec); err != nil {
		return nil, err
	}

	if err := requireRegion(req, rbacImages, opCreate); err != nil {
		return nil, err
	}

	source, err := s.imageSourceAt(body.Spec.URI)
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

	image := &imageRecord{
		Image: unikorn.Image{
			Metadata: newReadMetadata(newResourceID(), write, req.now).StaticMetadata,
			Spec:     spec,
			Status:   unikorn.ImageStatus{State: unikorn.ImagePending},
		},
		OrganizationID: organizationID,
		RegionID:       req.PathValue("regionID"),
		URI:            body.Spec.URI,
		SizeGiB:        source.SizeGiB,
		Lifecycle:      importSchedule(req.now, s.provisionDelay, importOutcome(source)),
	}

	s.world.Images[image.Image.Metadata.ID] = image

	return replyOK(image.Image), nil
}

// importOutcome is the state an import from source ends in.
func importOutcome(source ImageSource) string {
	if source.Outcome == ImageSourceFailed {
		return unikorn.ImageFailed
	}

	return unikorn.ImageReady
}

// deleteImage deletes one of the organization's own images in the region
// (pkg/handler/image DeleteImage). An image a server uses is refused with region's
// plain conflict; a deleted one shows failed, as region's image cache marks it, until
// the cloud has let it go, and deleting it again is not found, as the cloud says.
func (s *Sandbox) deleteImage(req *request) (*reply, error) {
	if err := requireRegion(req, rbacImages, opDelete); err != nil {
		return nil, err
	}

	id := req.PathValue("imageID")

	record, ok := s.world.Images[id]
	if !ok || record.OrganizationID != req.PathValue("organizationID") || !record.inRegion(req.PathValue("regionID")) || record.Deleted {
		return nil, errNotFound()
	}

	for _, server := range s.world.Servers {
		if server.Server.Spec.ImageID == id {
			return nil, errConflict()
		}
	}

	record.Deleted = true
	record.Image.Status.State = unikorn.ImageFailed
	record.Lifecycle = deprovisionSchedule(req.now, s.deprovisionDelay)

	return &reply{status: http.StatusAccepted}, nil
}

// inRegion reports whether the image lives in the region. An image saved before
// images knew their region is the fixture region's, the only one there was.
func (r *imageRecord) inRegion(regionID string) bool {
	if r.RegionID == "" {
		return regionID == RegionID
	}

	return r.RegionID == regionID
}
