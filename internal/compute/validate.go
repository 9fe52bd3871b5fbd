package compute

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Field names a Spec field in a Problem, so that a caller can point at its own input.
type Field string

// The fields of Spec that validation can complain about.
const (
	FieldName                      Field = "name"
	FieldNetworkID                 Field = "network_id"
	FieldFlavorID                  Field = "flavor_id"
	FieldImageID                   Field = "image_id"
	FieldUserData                  Field = "user_data"
	FieldSSHCertificateAuthorityID Field = "ssh_certificate_authority_id"
	FieldSecurityGroupIDs          Field = "security_group_ids"
	FieldAllowedSourceAddresses    Field = "allowed_source_addresses"
	FieldTags                      Field = "tags"
	FieldVolumeIDs                 Field = "volume_ids"
)

// Problem is one reason a Spec cannot be realized, phrased for the person who wrote it.
type Problem struct {
	Field   Field
	Summary string
	Detail  string
}

// ValidationError collects every Problem found, so a caller sees them all at once.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	parts := make([]string, 0, len(e.Problems))
	for _, problem := range e.Problems {
		parts = append(parts, fmt.Sprintf("%s: %s", problem.Field, problem.Detail))
	}

	return "invalid instance: " + strings.Join(parts, "; ")
}

func (e *ValidationError) add(field Field, summary, detail string, args ...any) {
	e.Problems = append(e.Problems, Problem{Field: field, Summary: summary, Detail: fmt.Sprintf(detail, args...)})
}

func (e *ValidationError) orNil() error {
	if len(e.Problems) == 0 {
		return nil
	}

	return e
}

// ValidateName checks an instance name without calling the API.
func ValidateName(name string) error {
	return cloud.ValidateName("instance", name)
}

// ValidateTagName checks that a tag name is not reserved by Unikorn.
func ValidateTagName(name string) error {
	if name == "" {
		return errors.New("tag names must not be empty")
	}

	if cloud.IsReservedTag(name) {
		return fmt.Errorf("tag %q uses a prefix reserved by Unikorn (*.%s): choose another name", name, cloud.ReservedTagDomain)
	}

	return nil
}

// ValidateCIDR checks an allowed source address, which region takes as an IPv4 prefix.
func ValidateCIDR(value string) error {
	prefix, err := netip.ParsePrefix(value)
	if err != nil || !prefix.Addr().Is4() {
		return fmt.Errorf("%q is not an IPv4 CIDR prefix such as 10.0.0.0/24", value)
	}

	if prefix.Masked() != prefix {
		return fmt.Errorf("%q has host bits set: did you mean %s?", value, prefix.Masked())
	}

	return nil
}

// cloudInitMarkers are the first bytes of the user-data formats cloud-init recognises.
var cloudInitMarkers = [][]byte{
	[]byte("#cloud-config"),
	[]byte("#!"),
	[]byte("#include"),
	[]byte("#cloud-boothook"),
	[]byte("#part-handler"),
	[]byte("#upstart-job"),
	[]byte("#cloud-config-archive"),
	[]byte("#cloud-config-jsonp"),
	[]byte("Content-Type: multipart/"),
	{0x1f, 0x8b}, // gzip
}

// IsCloudInit reports whether user data is in a format cloud-init recognises.
func IsCloudInit(userData string) bool {
	data := []byte(strings.TrimLeft(userData, "\ufeff"))

	return slices.ContainsFunc(cloudInitMarkers, func(marker []byte) bool { return bytes.HasPrefix(data, marker) })
}

// MaxUserDataEncoded is the most user data, base64-encoded, that a server accepts:
// OpenStack's metadata service keeps no more.
const MaxUserDataEncoded = 65535

// validateStatic checks what needs no API call.
func validateStatic(spec Spec, problems *ValidationError) {
	if err := ValidateName(spec.Name); err != nil {
		problems.add(FieldName, "Invalid instance name", "%s", err)
	}

	for name := range spec.Tags {
		if err := ValidateTagName(name); err != nil {
			problems.add(FieldTags, "Invalid tag name", "%s", err)
		}
	}

	for _, cidr := range spec.AllowedSourceAddresses {
		if err := ValidateCIDR(cidr); err != nil {
			problems.add(FieldAllowedSourceAddresses, "Invalid allowed source address", "%s", err)
		}
	}

	if size := len(encodeUserData(spec.UserData)); size > MaxUserDataEncoded {
		problems.add(FieldUserData, "User data too large",
			"user data is %d bytes once base64-encoded, and servers accept at most %d (about 48 KiB of text): "+
				"shorten it, compress it (gzip is a cloud-init format), or have it fetch the rest with #include",
			size, MaxUserDataEncoded)
	}

	if spec.SSHCertificateAuthorityID != "" && spec.UserData != "" && !IsCloudInit(spec.UserData) {
		problems.add(FieldUserData, "User data is not cloud-init",
			"with an SSH certificate authority the user data must be a cloud-init document "+
				"(starting with #cloud-config, #!, #include, a MIME multipart header or gzip), "+
				"because the authority is installed by merging cloud-init configuration")
	}
}

// Placement is what validation resolved: where the instance goes and what it runs.
type Placement struct {
	Network *unikorn.Network
	Flavor  *unikorn.Flavor
	Image   *unikorn.Image
}

// location is where an instance placed here lives.
func (p *Placement) location() *Location {
	return &Location{
		OrganizationID: p.Network.Metadata.OrganizationID,
		ProjectID:      p.Network.Metadata.ProjectID,
		RegionID:       p.Network.Status.RegionID,
	}
}

// Validate checks a Spec against the catalogue and the network it would live on, and
// returns every problem it finds at once. The same checks guard Create, and a plan can
// run them early whenever the values are known.
func (s *Service) Validate(ctx context.Context, spec Spec) (*Placement, error) {
	return s.validate(ctx, spec, true)
}

// ValidateUpdate checks only what an in-place update can change: the static rules and
// the references to security groups and an SSH certificate authority. The flavor and
// image cannot change in place, so an instance whose image has since left the
// catalogue can still have its tags or security groups changed.
func (s *Service) ValidateUpdate(ctx context.Context, spec Spec) error {
	_, err := s.validate(ctx, spec, false)

	return err
}

func (s *Service) validate(ctx context.Context, spec Spec, placing bool) (*Placement, error) {
	problems := &ValidationError{}
	validateStatic(spec, problems)

	defer s.references.startReferences(ctx, spec)()

	network, err := s.references.network(ctx, spec.NetworkID, time.Time{})
	if err != nil {
		if unikorn.IsNotFound(err) || unikorn.IsForbidden(err) {
			problems.add(FieldNetworkID, "Network not found",
				"network %s does not exist or is not accessible with these credentials", spec.NetworkID)

			return nil, problems
		}

		return nil, err
	}

	placement := &Placement{Network: network}

	if placing {
		if err := s.validatePlacement(ctx, spec, placement, problems); err != nil {
			return nil, err
		}
	}

	if err := s.validateReferences(ctx, spec, network, problems); err != nil {
		return nil, err
	}

	return placement, problems.orNil()
}

func (s *Service) validatePlacement(ctx context.Context, spec Spec, placement *Placement, problems *ValidationError) error {
	organizationID, regionID := placement.Network.Metadata.OrganizationID, placement.Network.Status.RegionID

	defer s.references.catalogue.StartSharedImages(ctx, organizationID, regionID)()

	flavor, err := s.references.catalogue.SharedFlavor(ctx, organizationID, regionID, spec.FlavorID)
	if err != nil {
		return err
	}

	if flavor == nil {
		problems.add(FieldFlavorID, "Unknown flavor",
			"flavor %s does not exist in region %s or is not available to this organization "+
				"(the unikorn_flavors data source lists the flavors there are)", spec.FlavorID, regionID)
	}

	image, err := s.references.catalogue.SharedImage(ctx, organizationID, regionID, spec.ImageID)
	if err != nil {
		return err
	}

	switch {
	case image == nil:
		problems.add(FieldImageID, "Unknown image",
			"image %s does not exist in region %s or is not available to this organization "+
				"(the unikorn_images data source lists the images there are)", spec.ImageID, regionID)
	case image.Status.State != unikorn.ImageReady:
		problems.add(FieldImageID, "Image not ready",
			"image %s (%s) is %s; only ready images can boot an instance", image.Metadata.ID, image.Metadata.Name, image.Status.State)
	}

	placement.Flavor, placement.Image = flavor, image

	if flavor != nil && image != nil {
		checkCompatible(flavor, image, problems)
	}

	return nil
}

// checkCompatible applies compute's flavor/image rules: architecture, disk size and
// virtualization must agree.
func checkCompatible(flavor *unikorn.Flavor, image *unikorn.Image, problems *ValidationError) {
	if flavor.Spec.Architecture != image.Spec.Architecture {
		problems.add(FieldImageID, "Architecture mismatch",
			"image %s is built for %s but flavor %s has %s CPUs: choose an image and flavor of the same architecture",
			image.Metadata.Name, image.Spec.Architecture, flavor.Metadata.Name, flavor.Spec.Architecture)
	}

	// Flavor disks are sized in GB (10^9 bytes), images in GiB (2^30 bytes).
	const gigabyte, gibibyte = 1_000_000_000, 1 << 30
	if int64(flavor.Spec.Disk)*gigabyte < int64(image.Spec.SizeGiB)*gibibyte {
		problems.add(FieldFlavorID, "Disk too small",
			"flavor %s has a %d GB disk but image %s needs at least %d GiB: choose a flavor with a larger disk",
			flavor.Metadata.Name, flavor.Spec.Disk, image.Metadata.Name, image.Spec.SizeGiB)
	}

	switch image.Spec.Virtualization {
	case unikorn.VirtualizationBaremetal:
		if !flavor.Spec.Baremetal {
			problems.add(FieldImageID, "Virtualization mismatch",
				"image %s is for bare-metal machines but flavor %s is virtual: choose a bare-metal flavor or a virtualized image",
				image.Metadata.Name, flavor.Metadata.Name)
		}
	case unikorn.VirtualizationVirtualized:
		if flavor.Spec.Baremetal {
			problems.add(FieldImageID, "Virtualization mismatch",
				"image %s is for virtual machines but flavor %s is bare metal: choose a virtual flavor or a bare-metal image",
				image.Metadata.Name, flavor.Metadata.Name)
		}
	}
}

func (s *Service) validateReferences(ctx context.Context, spec Spec, network *unikorn.Network, problems *ValidationError) error {
	for _, id := range slices.Sorted(slices.Values(spec.SecurityGroupIDs)) {
		group, err := s.references.securityGroup(ctx, id)

		switch {
		case err != nil:
			return err
		case group == nil:
			problems.add(FieldSecurityGroupIDs, "Security group not found",
				"security group %s does not exist or is not accessible with these credentials", id)
		case group.Status.NetworkID != network.Metadata.ID:
			problems.add(FieldSecurityGroupIDs, "Security group on another network",
				"security group %s (%s) belongs to network %s, but the instance is on network %s: "+
					"use a security group of the instance's network", id, group.Metadata.Name, group.Status.NetworkID, network.Metadata.ID)
		}
	}

	if spec.SSHCertificateAuthorityID == "" {
		return nil
	}

	authority, err := s.references.sshCertificateAuthority(ctx, spec.SSHCertificateAuthorityID)

	switch {
	case err != nil:
		return err
	case authority == nil:
		problems.add(FieldSSHCertificateAuthorityID, "SSH certificate authority not found",
			"SSH certificate authority %s does not exist or is not accessible with these credentials", spec.SSHCertificateAuthorityID)
	case authority.Metadata.OrganizationID != network.Metadata.OrganizationID || authority.Metadata.ProjectID != network.Metadata.ProjectID:
		problems.add(FieldSSHCertificateAuthorityID, "SSH certificate authority in another project",
			"SSH certificate authority %s (%s) belongs to project %s, but the network is in project %s: "+
				"use an authority of the same organization and project as the network",
			spec.SSHCertificateAuthorityID, authority.Metadata.Name, authority.Metadata.ProjectID, network.Metadata.ProjectID)
	}

	return nil
}
