package storage

import (
	"encoding/binary"
	"net/netip"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Range is an inclusive range of IPv4 addresses, as region keeps a network's storage
// range and an attachment's share of it.
type Range struct {
	Start netip.Addr `json:"start"`
	End   netip.Addr `json:"end"`
}

// StorageRange is the part of a network's reservation that file storage may use:
// from the end of the provider's carve-out (or from .2, after the network address and
// the gateway, when there is none) to the end of the reservation. A carve-out as
// large as the reservation leaves none, and so does a network without reservations.
func StorageRange(prefix string, reservations *unikorn.NetworkReservations) (Range, bool) {
	network, err := netip.ParsePrefix(prefix)
	if err != nil || !network.Addr().Is4() || reservations == nil {
		return Range{}, false
	}

	first := uint32(2)

	if provider := reservations.ProviderReservedPrefixLength; provider != nil {
		if *provider == reservations.PrefixLength {
			return Range{}, false
		}

		first = 1 << (32 - *provider)
	}

	last := uint32(1)<<(32-reservations.PrefixLength) - 1
	if first > last {
		return Range{}, false
	}

	base := network.Masked().Addr()

	return Range{Start: offset(base, first), End: offset(base, last)}, true
}

// Narrow is the share of a storage range an attachment uses: the first parallelism
// addresses, or all of them when the range is smaller.
func (r Range) Narrow(parallelism int) Range {
	if parallelism < 1 {
		parallelism = 1
	}

	end := offset(r.Start, uint32(parallelism-1))
	if toUint(end) > toUint(r.End) || toUint(end) < toUint(r.Start) {
		end = r.End
	}

	return Range{Start: r.Start, End: end}
}

// RemotePorts is the `remoteports` mount option of a multipath NFS mount over the
// range: one address, or the first and the last joined by a hyphen.
func (r Range) RemotePorts() string {
	if r.Start == r.End {
		return r.Start.String()
	}

	return r.Start.String() + "-" + r.End.String()
}

// MountSource is what an attachment mounts: the range's first address and the
// share's path.
func (r Range) MountSource(path string) string {
	return r.Start.String() + ":" + path
}

func offset(base netip.Addr, by uint32) netip.Addr {
	var raw [4]byte

	binary.BigEndian.PutUint32(raw[:], toUint(base)+by)

	return netip.AddrFrom4(raw)
}

func toUint(address netip.Addr) uint32 {
	raw := address.As4()

	return binary.BigEndian.Uint32(raw[:])
}
