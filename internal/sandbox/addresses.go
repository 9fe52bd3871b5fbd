package sandbox

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"encoding/pem"
	"fmt"
	"net/netip"

	"golang.org/x/crypto/ssh"
)

// publicPool is where public addresses come from: 198.18.0.0/15 is reserved for
// benchmarking, so a sandbox address can never be mistaken for a routable one.
var publicPool = netip.MustParsePrefix("198.18.0.0/15")

// allocatePrivateAddress hands out the next free host address of the network's DHCP
// range, which starts after the network's reservation. Allocation is next-fit, like a
// DHCP server, so a recreated server does not get its old address back at once. It
// returns "" when the range is exhausted.
func (w *world) allocatePrivateAddress(network *networkRecord) string {
	prefix, err := netip.ParsePrefix(network.Network.Status.Prefix)
	if err != nil {
		return ""
	}

	reserved := 0
	if r := network.Network.Status.Reservations; r != nil {
		reserved = 1 << (32 - r.PrefixLength)
	}

	// The network address, the gateway and the broadcast address are never handed out.
	first := max(reserved, 2)
	size := (1 << (32 - prefix.Bits())) - first - 1

	address, ok := nextFree(prefix.Masked().Addr(), first, size, &network.NextHost, w.privateAddressUsed(network.Network.Metadata.ID, "", true))
	if !ok {
		return ""
	}

	return address
}

// privateAddressUsed returns the addresses of a network that servers and load
// balancers hold, and with requested those load balancers have asked for, leaving out
// those of the load balancer except.
func (w *world) privateAddressUsed(networkID, except string, requested bool) map[string]bool {
	used := map[string]bool{}

	for _, server := range w.Servers {
		if server.Server.Status.NetworkID == networkID {
			used[server.Server.Status.PrivateIP] = true
		}
	}

	for id, record := range w.LoadBalancers {
		if id != except && record.LoadBalancer.Status.NetworkID == networkID {
			used[record.LoadBalancer.Status.VIPAddress] = true

			if requested {
				used[record.RequestedVIP] = true
			}
		}
	}

	delete(used, "")

	return used
}

// allocatePublicAddress hands out the next free address of the public pool.
func (w *world) allocatePublicAddress() string {
	used := map[string]bool{}

	for _, server := range w.Servers {
		used[server.Server.Status.PublicIP] = true
	}

	for _, record := range w.LoadBalancers {
		used[record.LoadBalancer.Status.PublicIP] = true
	}

	size := (1 << (32 - publicPool.Bits())) - 2
	address, _ := nextFree(publicPool.Addr(), 1, size, &w.NextPublicHost, used)

	return address
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

// macAddress numbers MACs in OpenStack's locally administered fa:16:3e range.
func macAddress(sequence uint32) string {
	return fmt.Sprintf("fa:16:3e:%02x:%02x:%02x", byte(sequence>>16), byte(sequence>>8), byte(sequence))
}

// newNetworkKey generates the key pair of a network's cloud identity and returns the
// private key in OpenSSH PEM form, which is what the sshkey endpoint hands out.
func newNetworkKey() (string, error) {
	_, private, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", fmt.Errorf("generating network key pair: %w", err)
	}

	block, err := ssh.MarshalPrivateKey(private, "")
	if err != nil {
		return "", fmt.Errorf("encoding network key pair: %w", err)
	}

	return string(pem.EncodeToMemory(block)), nil
}
