package loadbalancer

// Region's rules for load balancers as the sandbox applies them: the request shape the
// contract's schema enforces, the handler's own checks, the defaults it stores and the
// forms it normalizes to, which part of a listener an update may not change, and what
// a load balancer charges to the quota. They know nothing of HTTP or of the store:
// the handlers map their errors to answers (ruleError).

import (
	"fmt"
	"net/netip"
	"regexp"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Defaults region stores when a request leaves them out.
const (
	DefaultIdleTimeoutSeconds            = 60
	DefaultHealthCheckIntervalSeconds    = 10
	DefaultHealthCheckTimeoutSeconds     = 5
	DefaultHealthCheckHealthyThreshold   = 2
	DefaultHealthCheckUnhealthyThreshold = 2
)

// AllocationKind is the kind region charges a load balancer's quota under.
const AllocationKind = "loadbalancers.region.unikorn-cloud.org"

// Quota kinds a load balancer uses.
const (
	QuotaLoadBalancers = "loadbalancers"
	QuotaPublicIPs     = "publicips"
)

// Error is a refusal of a request. Unprocessable says region answers 422 (its handler's
// semantic checks); otherwise it answers 400 (the schema, or an address or CIDR that
// does not parse).
type Error struct {
	Unprocessable bool
	Message       string
}

func (e *Error) Error() string { return e.Message }

func badRequest(format string, args ...any) error {
	return &Error{Message: fmt.Sprintf(format, args...)}
}

func unprocessable(format string, args ...any) error {
	return &Error{Unprocessable: true, Message: fmt.Sprintf(format, args...)}
}

// The contract's patterns and bounds (region `loadBalancerListenerV2` and its parts).
var (
	listenerNamePattern = regexp.MustCompile(`^[a-z]([-a-z0-9]*[a-z0-9])?$`)
	cidrPattern         = regexp.MustCompile(`^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9]?[0-9])\/(?:3[0-2]|[1-2]?[0-9])$`)
)

const (
	maxListenerName = 63
	maxIdleTimeout  = 86400
	maxHealthPeriod = 300
	maxThreshold    = 10
)

// CheckSchema checks what region's request validator checks before any handler runs:
// bounds, patterns and enums of the spec. Its refusals are 400s.
func CheckSchema(spec unikorn.LoadBalancerSpec) error {
	if len(spec.Listeners) == 0 {
		return schemaError("/spec/listeners", "minimum number of items is 1")
	}

	for i, listener := range spec.Listeners {
		at := fmt.Sprintf("/spec/listeners/%d", i)

		if len(listener.Name) > maxListenerName {
			return schemaError(at+"/name", fmt.Sprintf("maximum string length is %d", maxListenerName))
		}

		if !listenerNamePattern.MatchString(listener.Name) {
			return schemaError(at+"/name", fmt.Sprintf("string doesn't match the regular expression %q", listenerNamePattern.String()))
		}

		if listener.Protocol != unikorn.LoadBalancerProtocolTCP && listener.Protocol != unikorn.LoadBalancerProtocolUDP {
			return schemaError(at+"/protocol", fmt.Sprintf("value %q is not one of the allowed values [\"tcp\",\"udp\"]", listener.Protocol))
		}

		if err := inRange(at+"/port", &listener.Port, 65535); err != nil {
			return err
		}

		if err := inRange(at+"/idleTimeoutSeconds", listener.IdleTimeoutSeconds, maxIdleTimeout); err != nil {
			return err
		}

		for j, cidr := range listener.AllowedCIDRs {
			if !cidrPattern.MatchString(cidr) {
				return schemaError(fmt.Sprintf("%s/allowedCidrs/%d", at, j), fmt.Sprintf("string doesn't match the regular expression %q", cidrPattern.String()))
			}
		}

		for j := range listener.Pool.Members {
			if err := inRange(fmt.Sprintf("%s/pool/members/%d/port", at, j), &listener.Pool.Members[j].Port, 65535); err != nil {
				return err
			}
		}

		if check := listener.Pool.HealthCheck; check != nil {
			for _, field := range []struct {
				name  string
				value *int
				max   int
			}{
				{"intervalSeconds", check.IntervalSeconds, maxHealthPeriod},
				{"timeoutSeconds", check.TimeoutSeconds, maxHealthPeriod},
				{"healthyThreshold", check.HealthyThreshold, maxThreshold},
				{"unhealthyThreshold", check.UnhealthyThreshold, maxThreshold},
			} {
				if err := inRange(at+"/pool/healthCheck/"+field.name, field.value, field.max); err != nil {
					return err
				}
			}
		}
	}

	return nil
}

func schemaError(pointer, reason string) error {
	return badRequest("request body has an error: doesn't match schema: Error at %q: %s", pointer, reason)
}

// inRange checks a bound of the schema: every one starts at 1.
func inRange(pointer string, value *int, highest int) error {
	switch {
	case value == nil:
		return nil
	case *value < 1:
		return schemaError(pointer, "number must be at least 1")
	case *value > highest:
		return schemaError(pointer, fmt.Sprintf("number must be at most %d", highest))
	}

	return nil
}

// ParseAddress parses an IPv4 address as region does, returning its canonical form:
// anything else is a 400 naming the field.
func ParseAddress(address, field string) (string, error) {
	parsed, err := netip.ParseAddr(address)
	if err != nil || !parsed.Unmap().Is4() {
		return "", badRequest("%s must be a valid IPv4 address", field)
	}

	return parsed.Unmap().String(), nil
}

// CheckVIP parses a requested virtual IP and requires it to lie in the network's
// prefix. It returns the canonical address.
func CheckVIP(vip, networkPrefix string) (string, error) {
	address, err := ParseAddress(vip, "vipAddress")
	if err != nil {
		return "", err
	}

	prefix, err := netip.ParsePrefix(networkPrefix)
	if err != nil || !prefix.Contains(netip.MustParseAddr(address)) {
		return "", unprocessable("vipAddress must be within the selected network CIDR")
	}

	return address, nil
}

// Normalize applies the handler's checks to a spec that passed CheckSchema and returns
// it as region stores and reads it back: listener and member order kept, booleans
// always present, the TCP idle timeout and a present health check's fields defaulted,
// CIDRs reduced to their networks, an empty CIDR list absent, members never null.
func Normalize(spec unikorn.LoadBalancerSpec) (unikorn.LoadBalancerSpec, error) {
	if err := checkListeners(spec.Listeners); err != nil {
		return unikorn.LoadBalancerSpec{}, err
	}

	out := unikorn.LoadBalancerSpec{
		PublicIP:  boolean(spec.PublicIP != nil && *spec.PublicIP),
		Listeners: make([]unikorn.LoadBalancerListener, len(spec.Listeners)),
	}

	for i, listener := range spec.Listeners {
		normalized, err := normalizeListener(listener)
		if err != nil {
			return unikorn.LoadBalancerSpec{}, err
		}

		out.Listeners[i] = normalized
	}

	return out, nil
}

// checkListeners is region's semantic validation, in its order: each listener's own
// rules, then unique names, then unique protocol and port.
func checkListeners(listeners []unikorn.LoadBalancerListener) error {
	names := map[string]bool{}
	endpoints := map[string]bool{}

	for i := range listeners {
		listener := &listeners[i]

		if err := checkListener(listener); err != nil {
			return err
		}

		if names[listener.Name] {
			return unprocessable("listener names must be unique")
		}

		names[listener.Name] = true

		endpoint := fmt.Sprintf("%s/%d", listener.Protocol, listener.Port)
		if endpoints[endpoint] {
			return unprocessable("listener protocol and port combinations must be unique")
		}

		endpoints[endpoint] = true
	}

	return nil
}

func checkListener(listener *unikorn.LoadBalancerListener) error {
	if !listenerNamePattern.MatchString(listener.Name) || len(listener.Name) > maxListenerName {
		return unprocessable("listener name must be a valid DNS label")
	}

	if listener.Port < 1 || listener.Port > 65535 {
		return unprocessable("listener port must be between 1 and 65535")
	}

	if listener.IdleTimeoutSeconds != nil && *listener.IdleTimeoutSeconds < 1 {
		return unprocessable("idleTimeoutSeconds must be greater than zero")
	}

	// Members are told apart by address and port as written, before parsing.
	members := map[string]bool{}

	for _, member := range listener.Pool.Members {
		if member.Port < 1 || member.Port > 65535 {
			return unprocessable("member port must be between 1 and 65535")
		}

		key := fmt.Sprintf("%s/%d", member.Address, member.Port)
		if members[key] {
			return unprocessable("pool members must be unique by address and port")
		}

		members[key] = true
	}

	if listener.Protocol != unikorn.LoadBalancerProtocolUDP {
		return nil
	}

	if listener.IdleTimeoutSeconds != nil {
		return unprocessable("idleTimeoutSeconds is only supported for TCP listeners")
	}

	if listener.Pool.ProxyProtocolV2 != nil && *listener.Pool.ProxyProtocolV2 {
		return unprocessable("proxyProtocolV2 is only supported for TCP listeners")
	}

	return nil
}

func normalizeListener(in unikorn.LoadBalancerListener) (unikorn.LoadBalancerListener, error) {
	out := unikorn.LoadBalancerListener{Name: in.Name, Protocol: in.Protocol, Port: in.Port}

	for _, cidr := range in.AllowedCIDRs {
		prefix, err := netip.ParsePrefix(cidr)
		if err != nil || !prefix.Addr().Is4() {
			return out, badRequest("allowedCidrs must contain valid IPv4 CIDR prefixes")
		}

		out.AllowedCIDRs = append(out.AllowedCIDRs, prefix.Masked().String())
	}

	members := make([]unikorn.LoadBalancerMember, len(in.Pool.Members))

	for i, member := range in.Pool.Members {
		address, err := ParseAddress(member.Address, "member address")
		if err != nil {
			return out, err
		}

		members[i] = unikorn.LoadBalancerMember{Address: address, Port: member.Port}
	}

	healthCheck, err := normalizeHealthCheck(in.Pool.HealthCheck)
	if err != nil {
		return out, err
	}

	out.Pool = unikorn.LoadBalancerPool{
		ProxyProtocolV2: boolean(in.Pool.ProxyProtocolV2 != nil && *in.Pool.ProxyProtocolV2),
		Members:         members,
		HealthCheck:     healthCheck,
	}

	out.IdleTimeoutSeconds = copyInt(in.IdleTimeoutSeconds)
	if out.IdleTimeoutSeconds == nil && in.Protocol == unikorn.LoadBalancerProtocolTCP {
		out.IdleTimeoutSeconds = integer(DefaultIdleTimeoutSeconds)
	}

	return out, nil
}

func normalizeHealthCheck(in *unikorn.LoadBalancerHealthCheck) (*unikorn.LoadBalancerHealthCheck, error) {
	if in == nil {
		return nil, nil
	}

	defaulted := func(value *int, fallback int, field string) (int, error) {
		if value == nil {
			return fallback, nil
		}

		if *value < 1 {
			return 0, unprocessable("%s must be greater than zero", field)
		}

		return *value, nil
	}

	interval, err := defaulted(in.IntervalSeconds, DefaultHealthCheckIntervalSeconds, "intervalSeconds")
	if err != nil {
		return nil, err
	}

	timeout, err := defaulted(in.TimeoutSeconds, DefaultHealthCheckTimeoutSeconds, "timeoutSeconds")
	if err != nil {
		return nil, err
	}

	healthy, err := defaulted(in.HealthyThreshold, DefaultHealthCheckHealthyThreshold, "healthyThreshold")
	if err != nil {
		return nil, err
	}

	unhealthy, err := defaulted(in.UnhealthyThreshold, DefaultHealthCheckUnhealthyThreshold, "unhealthyThreshold")
	if err != nil {
		return nil, err
	}

	if timeout >= interval {
		return nil, unprocessable("timeoutSeconds must be less than intervalSeconds")
	}

	return &unikorn.LoadBalancerHealthCheck{
		IntervalSeconds:    integer(interval),
		TimeoutSeconds:     integer(timeout),
		HealthyThreshold:   integer(healthy),
		UnhealthyThreshold: integer(unhealthy),
	}, nil
}

// CheckImmutable refuses an update that changes the protocol, the port or the PROXY
// protocol of a listener that keeps its name: the backend cannot change them in place.
// A listener of a new name is an addition, and one renamed a removal and an addition.
// Both specs are normalized.
func CheckImmutable(current, required []unikorn.LoadBalancerListener) error {
	existing := map[string]unikorn.LoadBalancerListener{}
	for _, listener := range current {
		existing[listener.Name] = listener
	}

	for _, listener := range required {
		before, ok := existing[listener.Name]
		if !ok {
			continue
		}

		switch {
		case before.Protocol != listener.Protocol:
			return unprocessable("listener protocol cannot be changed for an existing listener name")
		case before.Port != listener.Port:
			return unprocessable("listener port cannot be changed for an existing listener name")
		case isTrue(before.Pool.ProxyProtocolV2) != isTrue(listener.Pool.ProxyProtocolV2):
			return unprocessable("listener pool proxyProtocolV2 cannot be changed for an existing listener name")
		}
	}

	return nil
}

// Allocations are the quota a load balancer uses: one load balancer, and one public
// IP when it has one.
func Allocations(publicIP bool) []unikorn.ResourceAllocation {
	lines := []unikorn.ResourceAllocation{{Kind: QuotaLoadBalancers, Committed: 1}}
	if publicIP {
		lines = append(lines, unikorn.ResourceAllocation{Kind: QuotaPublicIPs, Committed: 1})
	}

	return lines
}

func boolean(b bool) *bool { return &b }

func integer(i int) *int { return &i }

func isTrue(b *bool) bool { return b != nil && *b }

func copyInt(i *int) *int {
	if i == nil {
		return nil
	}

	return integer(*i)
}
