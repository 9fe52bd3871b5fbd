package loadbalancing

import (
	"cmp"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Listener protocols.
const (
	ProtocolTCP = unikorn.LoadBalancerProtocolTCP
	ProtocolUDP = unikorn.LoadBalancerProtocolUDP
)

// Provisioning statuses the waits look for.
const (
	StatusProvisioned = unikorn.ProvisioningProvisioned
	StatusError       = unikorn.ProvisioningError
)

// Spec is the whole document a user writes about a load balancer, all of which an
// update replaces: region's full-replace PUT takes exactly this.
type Spec struct {
	Name        string
	Description string
	Tags        map[string]string
	// PublicIP asks for a public address in front of the virtual IP.
	PublicIP  bool
	Listeners []Listener
}

// Listener is one port the load balancer listens on and the pool it forwards to.
// Region knows a listener by its name: its protocol, port and PROXY protocol are
// fixed for as long as the name is kept.
type Listener struct {
	Name     string
	Protocol string
	Port     int
	// AllowedCIDRs are the sources it admits; none admits every source.
	AllowedCIDRs []string
	// IdleTimeoutSeconds is 0 for none, which a UDP listener must have and a TCP
	// listener gets region's default for.
	IdleTimeoutSeconds int
	ProxyProtocolV2    bool
	Members            []Member
	// HealthCheck is nil for none.
	HealthCheck *HealthCheck
}

// Member is a backend of a listener's pool.
type Member struct {
	Address string
	Port    int
}

// HealthCheck is how a pool checks its members; a zero field is region's default.
type HealthCheck struct {
	IntervalSeconds    int
	TimeoutSeconds     int
	HealthyThreshold   int
	UnhealthyThreshold int
}

// Create is a new load balancer: its document, and the network and virtual IP that
// it keeps for its whole life.
type Create struct {
	Spec

	NetworkID string
	// VIPAddress is the address asked for, empty to let the network choose.
	VIPAddress string
}

// LoadBalancer is a load balancer as region has it.
type LoadBalancer struct {
	Spec

	ID             string
	OrganizationID string
	ProjectID      string
	RegionID       string
	NetworkID      string
	// VIPAddress is its address on the network, and PublicIPAddress the public one;
	// each is empty until region has provisioned it.
	VIPAddress         string
	PublicIPAddress    string
	ProvisioningStatus string
	HealthStatus       string
	CreationTime       time.Time
	// Deleting says region is deleting it.
	Deleting bool
}

// Query selects load balancers; an empty field selects all.
type Query struct {
	OrganizationID string
	ProjectID      string
	RegionID       string
	NetworkID      string
	Tags           map[string]string
}

// fromWire is region's load balancer in the façade's terms.
func fromWire(in *unikorn.LoadBalancer) *LoadBalancer {
	metadata := in.Metadata

	out := &LoadBalancer{
		Spec:               specFromWire(metadata.WriteMetadata, in.Spec),
		ID:                 metadata.ID,
		OrganizationID:     metadata.OrganizationID,
		ProjectID:          metadata.ProjectID,
		RegionID:           in.Status.RegionID,
		NetworkID:          in.Status.NetworkID,
		VIPAddress:         in.Status.VIPAddress,
		PublicIPAddress:    in.Status.PublicIP,
		ProvisioningStatus: metadata.ProvisioningStatus,
		HealthStatus:       metadata.HealthStatus,
		CreationTime:       metadata.CreationTime,
		Deleting:           cloud.Deleting(&metadata.ReadMetadata),
	}

	return out
}

func specFromWire(metadata unikorn.WriteMetadata, in unikorn.LoadBalancerSpec) Spec {
	out := Spec{
		Name:        metadata.Name,
		Description: metadata.Description,
		Tags:        cloud.TagMap(cloud.TagsFromWire(metadata.Tags)),
		PublicIP:    in.PublicIP != nil && *in.PublicIP,
		Listeners:   make([]Listener, 0, len(in.Listeners)),
	}

	for _, listener := range in.Listeners {
		converted := Listener{
			Name:            listener.Name,
			Protocol:        listener.Protocol,
			Port:            listener.Port,
			AllowedCIDRs:    slices.Clone(listener.AllowedCIDRs),
			ProxyProtocolV2: listener.Pool.ProxyProtocolV2 != nil && *listener.Pool.ProxyProtocolV2,
			Members:         make([]Member, 0, len(listener.Pool.Members)),
		}

		if listener.IdleTimeoutSeconds != nil {
			converted.IdleTimeoutSeconds = *listener.IdleTimeoutSeconds
		}

		for _, member := range listener.Pool.Members {
			converted.Members = append(converted.Members, Member(member))
		}

		if check := listener.Pool.HealthCheck; check != nil {
			converted.HealthCheck = &HealthCheck{
				IntervalSeconds:    valueOf(check.IntervalSeconds),
				TimeoutSeconds:     valueOf(check.TimeoutSeconds),
				HealthyThreshold:   valueOf(check.HealthyThreshold),
				UnhealthyThreshold: valueOf(check.UnhealthyThreshold),
			}
		}

		out.Listeners = append(out.Listeners, converted)
	}

	return out
}

// wire is the document as region takes it. Listeners go in name order, members in
// address and port order and tags in name order, so that one Spec always makes one
// document; zero values region defaults are left out for it to default.
func (s Spec) wire() (unikorn.WriteMetadata, unikorn.LoadBalancerSpec) {
	metadata := unikorn.WriteMetadata{Name: s.Name, Description: s.Description, Tags: cloud.TagsOf(s.Tags).Wire()}

	publicIP := s.PublicIP
	spec := unikorn.LoadBalancerSpec{PublicIP: &publicIP, Listeners: []unikorn.LoadBalancerListener{}}

	listeners := slices.Clone(s.Listeners)
	slices.SortFunc(listeners, func(a, b Listener) int { return cmp.Compare(a.Name, b.Name) })

	for _, listener := range listeners {
		proxy := listener.ProxyProtocolV2
		out := unikorn.LoadBalancerListener{
			Name:               listener.Name,
			Protocol:           listener.Protocol,
			Port:               listener.Port,
			AllowedCIDRs:       slices.Clone(listener.AllowedCIDRs),
			IdleTimeoutSeconds: pointerUnlessZero(listener.IdleTimeoutSeconds),
			Pool:               unikorn.LoadBalancerPool{ProxyProtocolV2: &proxy, Members: []unikorn.LoadBalancerMember{}},
		}

		for _, member := range sortedMembers(listener.Members) {
			out.Pool.Members = append(out.Pool.Members, unikorn.LoadBalancerMember(member))
		}

		if check := listener.HealthCheck; check != nil {
			out.Pool.HealthCheck = &unikorn.LoadBalancerHealthCheck{
				IntervalSeconds:    pointerUnlessZero(check.IntervalSeconds),
				TimeoutSeconds:     pointerUnlessZero(check.TimeoutSeconds),
				HealthyThreshold:   pointerUnlessZero(check.HealthyThreshold),
				UnhealthyThreshold: pointerUnlessZero(check.UnhealthyThreshold),
			}
		}

		spec.Listeners = append(spec.Listeners, out)
	}

	return metadata, spec
}

func sortedMembers(members []Member) []Member {
	sorted := slices.Clone(members)
	slices.SortFunc(sorted, func(a, b Member) int {
		return cmp.Or(cmp.Compare(a.Address, b.Address), cmp.Compare(a.Port, b.Port))
	})

	return sorted
}

func pointerUnlessZero(i int) *int {
	if i == 0 {
		return nil
	}

	return &i
}

func valueOf(i *int) int {
	if i == nil {
		return 0
	}

	return *i
}
