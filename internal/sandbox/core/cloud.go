package core

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"reflect"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The cloud below region hands out addresses as OpenStack's network service does:
// every server and load balancer holds ports on its network (Kind.Ports), and a new
// port takes the next free address of the network's subnet (Kind.Subnet) or of the
// public pool. Whichever families make ports, they share one allocator.

// Port is an address a record holds.
type Port struct {
	// NetworkID is the network of a private address; empty for a public one.
	NetworkID string
	Address   string
	// Requested marks an address asked for and not yet held (a load balancer's
	// virtual IP before it comes up): a new port does not take it, but it holds
	// nothing against the one that asked.
	Requested bool
}

// Subnet is a network's address range and where allocation in it goes on from.
type Subnet struct {
	Prefix       string
	Reservations *unikorn.NetworkReservations
	// NextHost is the next-fit cursor, which the network's record keeps.
	NextHost *uint32
}

// PublicPool is where public addresses come from: 198.18.0.0/15 is reserved for
// benchmarking, so a sandbox address can never be mistaken for a routable one.
var PublicPool = netip.MustParsePrefix("198.18.0.0/15")

// The cloud's own counters, which the state file keeps.
var (
	// macSequence numbers every MAC handed out, so that a recreated server visibly
	// gets a new one.
	macSequence = &Section[uint32]{Name: "macSequence"}
	// nextPublicHost is the next-fit cursor of public address allocation.
	nextPublicHost = &Section[uint32]{Name: "nextPublicHost"}
)

// subnet finds the subnet of a network.
func subnet(st *Store, networkID string) *Subnet {
	for _, kind := range st.reg.kinds {
		if kind.subnet == nil {
			continue
		}

		if record := st.records[kind.name].MapIndex(reflectString(networkID)); record.IsValid() {
			return kind.subnet(record.Interface())
		}
	}

	return nil
}

// AllocateAddress hands out the next free host address of the network's DHCP range,
// which starts after the network's reservation. Allocation is next-fit, like a DHCP
// server, so a recreated server does not get its old address back at once. It
// returns "" when the range is exhausted or there is no such network.
func AllocateAddress(st *Store, networkID string) string {
	network := subnet(st, networkID)
	if network == nil {
		return ""
	}

	prefix, err := netip.ParsePrefix(network.Prefix)
	if err != nil {
		return ""
	}

	reserved := 0
	if r := network.Reservations; r != nil {
		reserved = 1 << (32 - r.PrefixLength)
	}

	// The network address, the gateway and the broadcast address are never handed out.
	first := max(reserved, 2)
	size := (1 << (32 - prefix.Bits())) - first - 1

	address, ok := nextFree(prefix.Masked().Addr(), first, size, network.NextHost, UsedAddresses(st, networkID, "", true))
	if !ok {
		return ""
	}

	return address
}

// UsedAddresses returns the addresses of a network that ports hold, and with requested
// those asked for, leaving out those of the record except.
func UsedAddresses(st *Store, networkID, except string, requested bool) map[string]bool {
	used := map[string]bool{}

	eachPort(st, func(holder string, port Port) {
		if holder != except && port.NetworkID == networkID && (requested || !port.Requested) {
			used[port.Address] = true
		}
	})

	delete(used, "")

	return used
}

// AllocatePublicAddress hands out the next free address of the public pool.
func AllocatePublicAddress(st *Store) string {
	used := map[string]bool{}

	eachPort(st, func(_ string, port Port) {
		if port.NetworkID == "" {
			used[port.Address] = true
		}
	})

	size := (1 << (32 - PublicPool.Bits())) - 2
	address, _ := nextFree(PublicPool.Addr(), 1, size, nextPublicHost.Get(st), used)

	return address
}

// NextMAC numbers a new MAC in OpenStack's locally administered fa:16:3e range.
func NextMAC(st *Store) string {
	sequence := macSequence.Get(st)
	*sequence++

	return MACAddress(*sequence)
}

// MACAddress is the MAC of a sequence number.
func MACAddress(sequence uint32) string {
	return fmt.Sprintf("fa:16:3e:%02x:%02x:%02x", byte(sequence>>16), byte(sequence>>8), byte(sequence))
}

func eachPort(st *Store, yield func(holder string, port Port)) {
	for _, kind := range st.reg.kinds {
		if kind.ports == nil {
			continue
		}

		for iterator := st.records[kind.name].MapRange(); iterator.Next(); {
			for _, port := range kind.ports(iterator.Value().Interface()) {
				yield(iterator.Key().String(), port)
			}
		}
	}
}

// nextFree returns the first address base+first+i (i counted from *cursor, wrapping
// within size) that is not used, and advances the cursor past it.
func nextFree(base netip.Addr, first, size int, cursor *uint32, used map[string]bool) (string, bool) {
	if size <= 0 {
		return "", false
	}

	start := binary.BigEndian.Uint32(base.AsSlice())

	for range size {
		offset := int(*cursor) % size
		*cursor = uint32((offset + 1) % size)

		var raw [4]byte

		binary.BigEndian.PutUint32(raw[:], start+uint32(first+offset))

		address := netip.AddrFrom4(raw).String()
		if !used[address] {
			return address, true
		}
	}

	return "", false
}

func reflectString(s string) reflect.Value {
	return reflect.ValueOf(s)
}
