package storage

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/netip"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Problem is a reason region would refuse file storage, found before anything is
// sent, with what to do about it.
type Problem struct {
	// NetworkID names the attachment at fault; empty for a problem of the class.
	NetworkID string
	Summary   string
	Detail    string
	Remedy    string
}

// Range is an inclusive range of IPv4 addresses.
type Range struct {
	First netip.Addr
	Last  netip.Addr
}

// Region's reservations of a network created without any: a /25 from the start of
// the network, of which the provider keeps the first /28.
const (
	defaultReservationPrefixLength = 25
	defaultProviderPrefixLength    = 28
)

// StorageRange is the part of a network's reservations that file storage may use, as
// region finds it: from the end of the provider's carve-out (or from the third
// address, after the network's and the gateway's, when there is none) to the end of
// the reservation. A carve-out as large as the reservation leaves none.
func StorageRange(network *unikorn.Network) (Range, bool) {
	prefix, err := netip.ParsePrefix(network.Status.Prefix)
	if err != nil || !prefix.Addr().Is4() {
		return Range{}, false
	}

	reservations := network.Status.Reservations
	if reservations == nil {
		provider := defaultProviderPrefixLength
		reservations = &unikorn.NetworkReservations{PrefixLength: defaultReservationPrefixLength, ProviderReservedPrefixLength: &provider}
	}

	first := uint32(2)

	if provider := reservations.ProviderReservedPrefixLength; provider != nil {
		if *provider <= reservations.PrefixLength {
			return Range{}, false
		}

		first = 1 << (32 - *provider)
	}

	if reservations.PrefixLength < 1 || reservations.PrefixLength > 32 {
		return Range{}, false
	}

	last := uint32(1)<<(32-reservations.PrefixLength) - 1
	if first > last {
		return Range{}, false
	}

	raw := prefix.Masked().Addr().As4()
	base := binary.BigEndian.Uint32(raw[:])

	return Range{First: addressAt(base + first), Last: addressAt(base + last)}, true
}

func addressAt(value uint32) netip.Addr {
	var raw [4]byte

	binary.BigEndian.PutUint32(raw[:], value)

	return netip.AddrFrom4(raw)
}

// CheckAttachments reads each network file storage of projectID is to be exported
// to and returns what region would refuse: a network that does not exist or cannot
// be read, one of another project, one without a storage range. A network still
// being provisioned passes, as it may be provisioned by the time the storage is
// written. A read that fails without an answer is returned as the error.
func (s *Service) CheckAttachments(ctx context.Context, projectID string, networkIDs []string) ([]Problem, error) {
	var problems []Problem

	for _, id := range networkIDs {
		network, err := s.client.GetNetwork(ctx, id)

		switch {
		case unikorn.IsNotFound(err) || unikorn.IsForbidden(err):
			problems = append(problems, Problem{
				NetworkID: id, Summary: "Network not found",
				Detail: fmt.Sprintf("Network %s does not exist or cannot be read with these credentials, so region "+
					"would refuse to export file storage to it.", id),
				Remedy: "Check the network ID, and that the provider's token is a member of the network's project.",
			})

			continue
		case err != nil:
			return nil, err
		}

		if projectID != "" && network.Metadata.ProjectID != projectID {
			problems = append(problems, Problem{
				NetworkID: id, Summary: "Network of another project",
				Detail: fmt.Sprintf("Network %s is in project %s, and file storage is exported only to networks of its own "+
					"project, %s.", id, network.Metadata.ProjectID, projectID),
				Remedy: "Attach a network of the storage's project, or make the storage in the network's project.",
			})

			continue
		}

		if _, ok := StorageRange(network); !ok {
			problems = append(problems, Problem{
				NetworkID: id, Summary: "Network without a storage range",
				Detail: fmt.Sprintf("Network %s has no storage range: %s, so region has no addresses on it to export "+
					"file storage from.", id, describeReservations(network.Status.Reservations)),
				Remedy: "Attach a network whose reservations leave room for storage: a provider_reserved_prefix_length " +
					"longer than prefix_length, or none. Reservations are fixed when a network is created.",
			})
		}
	}

	return problems, nil
}

func describeReservations(r *unikorn.NetworkReservations) string {
	if r == nil || r.ProviderReservedPrefixLength == nil {
		return "it reserves no addresses"
	}

	return fmt.Sprintf("the provider's carve-out (/%d) takes its whole reservation (/%d)", *r.ProviderReservedPrefixLength, r.PrefixLength)
}

// CheckClass returns what region would refuse of a storage class for a region: one
// the token cannot see, or one of another region. A read that fails is the error.
func (s *Service) CheckClass(ctx context.Context, regionID, classID string) (*Problem, error) {
	all, err := s.Classes(ctx, "")
	if err != nil {
		return nil, err
	}

	var inRegion []string

	for _, class := range all {
		if class.RegionID == regionID {
			inRegion = append(inRegion, fmt.Sprintf("%s (%s)", class.Name, class.ID))
		}
	}

	for _, class := range all {
		if class.ID != classID {
			continue
		}

		if class.RegionID == regionID {
			return nil, nil
		}

		return &Problem{
			Summary: "Storage class of another region",
			Detail:  fmt.Sprintf("Storage class %s (%s) is of region %s, not of region %s.", class.Name, classID, class.RegionID, regionID),
			Remedy:  classRemedy(regionID, inRegion),
		}, nil
	}

	return &Problem{
		Summary: "Storage class not found",
		Detail:  fmt.Sprintf("No storage class %s is visible to these credentials.", classID),
		Remedy:  classRemedy(regionID, inRegion),
	}, nil
}

func classRemedy(regionID string, inRegion []string) string {
	if len(inRegion) == 0 {
		return fmt.Sprintf("Region %s offers this token no storage class; check region_id.", regionID)
	}

	return fmt.Sprintf("Use a class of region %s: %s. The unikorn_file_storage_classes data source finds one by name or protocol.",
		regionID, strings.Join(inRegion, ", "))
}
