// Package loadbalancing is the façade's load balancers: region's network-scoped layer 4
// load balancers, one document per load balancer that a full-replace PUT under an
// optimistic lock changes. It knows region's rules for that document, so that a
// caller can check a document before sending it, and how to create, update and delete
// one without losing track of it while reads lag writes and answers get lost.
package loadbalancing

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// Region's defaults for what a document leaves out.
const (
	DefaultIdleTimeoutSeconds            = 60
	DefaultHealthCheckIntervalSeconds    = 10
	DefaultHealthCheckTimeoutSeconds     = 5
	DefaultHealthCheckHealthyThreshold   = 2
	DefaultHealthCheckUnhealthyThreshold = 2
)

// Bounds region sets.
const (
	MaxListenerNameLength   = 63
	MaxIdleTimeoutSeconds   = 86400
	MaxHealthCheckSeconds   = 300
	MaxHealthCheckThreshold = 10
)

// Fields that a Problem can name, as the Terraform schema names them: a listener's,
// or with no listener the load balancer's own.
const (
	FieldVIPAddress = "vip_address"

	FieldName               = "name"
	FieldProtocol           = "protocol"
	FieldPort               = "port"
	FieldAllowedCIDRs       = "allowed_cidrs"
	FieldIdleTimeoutSeconds = "idle_timeout_seconds"
	FieldProxyProtocolV2    = "proxy_protocol_v2"
	FieldMembers            = "members"
	FieldHealthCheck        = "health_check"
)

// Problem is one reason region would refuse a document, phrased for the person who
// wrote it. Field names the listener's attribute, empty for the listener as a whole;
// without a listener, Field names the load balancer's attribute, and both empty the
// listeners as a whole.
type Problem struct {
	Listener string
	Field    string
	Summary  string
	Detail   string
}

func problem(listener, field, summary, detail string, args ...any) Problem {
	return Problem{Listener: listener, Field: field, Summary: summary, Detail: fmt.Sprintf(detail, args...)}
}

// ValidateName returns why region would refuse name for a load balancer, or nil.
func ValidateName(name string) error {
	return cloud.ValidateName("load balancer", name)
}

// DefaultIdleTimeout is the idle timeout region gives a listener of protocol that
// sets none: 60 seconds for TCP, none for UDP.
func DefaultIdleTimeout(protocol string) int {
	if protocol == ProtocolTCP {
		return DefaultIdleTimeoutSeconds
	}

	return 0
}

// ValidateListeners returns every reason region would refuse the listeners, with 400
// or 422, in name order. Members and CIDRs that do not parse are reported too.
func ValidateListeners(listeners []Listener) []Problem {
	var problems []Problem

	if len(listeners) == 0 {
		problems = append(problems, problem("", "", "No listener",
			"A load balancer needs at least one listener."))
	}

	sorted := slices.Clone(listeners)
	slices.SortStableFunc(sorted, func(a, b Listener) int { return strings.Compare(a.Name, b.Name) })

	endpoints := map[string]string{}

	for _, listener := range sorted {
		problems = append(problems, ValidateListener(listener)...)

		endpoint := fmt.Sprintf("%s/%d", listener.Protocol, listener.Port)
		if other, taken := endpoints[endpoint]; taken {
			problems = append(problems, problem(listener.Name, FieldPort, "Listener port taken",
				"Listeners %q and %q both listen on %s port %d, and region allows one listener per protocol and port. "+
					"Give one of them another port.", other, listener.Name, listener.Protocol, listener.Port))
		} else {
			endpoints[endpoint] = listener.Name
		}
	}

	return problems
}

// ValidateListener returns every reason region would refuse one listener on its own.
func ValidateListener(l Listener) []Problem {
	var problems []Problem

	add := func(field, summary, detail string, args ...any) {
		problems = append(problems, problem(l.Name, field, summary, detail, args...))
	}

	if len(l.Name) > MaxListenerNameLength || !cloud.IsLabel(l.Name) {
		add(FieldName, "Invalid listener name", "Listener name %q must be a DNS label of at most %d characters that "+
			"starts with a lower-case letter: lower-case letters, digits and dashes, not ending with a dash.", l.Name, MaxListenerNameLength)
	}

	if l.Protocol != ProtocolTCP && l.Protocol != ProtocolUDP {
		add(FieldProtocol, "Invalid listener protocol", "Protocol %q is neither %q nor %q.", l.Protocol, ProtocolTCP, ProtocolUDP)
	}

	if l.Port < 1 || l.Port > 65535 {
		add(FieldPort, "Invalid listener port", "Port %d is not between 1 and 65535.", l.Port)
	}

	switch {
	case l.Protocol == ProtocolUDP && l.IdleTimeoutSeconds != 0:
		add(FieldIdleTimeoutSeconds, "Idle timeout on a UDP listener",
			"Region supports an idle timeout on TCP listeners only; remove idle_timeout_seconds from this UDP listener.")
	case l.IdleTimeoutSeconds < 0 || l.IdleTimeoutSeconds > MaxIdleTimeoutSeconds:
		add(FieldIdleTimeoutSeconds, "Invalid idle timeout", "Idle timeout %d is not between 1 and %d seconds.", l.IdleTimeoutSeconds, MaxIdleTimeoutSeconds)
	}

	if l.Protocol == ProtocolUDP && l.ProxyProtocolV2 {
		add(FieldProxyProtocolV2, "PROXY protocol on a UDP listener",
			"Region supports PROXY protocol v2 on TCP listeners only; set proxy_protocol_v2 to false or remove it.")
	}

	for _, cidr := range l.AllowedCIDRs {
		if _, ok := CanonicalCIDR(cidr); !ok {
			add(FieldAllowedCIDRs, "Invalid allowed CIDR", "%q is not an IPv4 CIDR; write it like 192.0.2.0/24.", cidr)
		}
	}

	problems = append(problems, validateMembers(l)...)

	if check := l.HealthCheck; check != nil {
		problems = append(problems, validateHealthCheck(l.Name, *check)...)
	}

	return problems
}

func validateMembers(l Listener) []Problem {
	var problems []Problem

	seen := map[Member]bool{}

	for _, member := range l.Members {
		if _, ok := CanonicalAddress(member.Address); !ok {
			problems = append(problems, problem(l.Name, FieldMembers, "Invalid member address",
				"Member address %q is not an IPv4 address; region balances to addresses only, such as an instance's private_ip.", member.Address))
		}

		if member.Port < 1 || member.Port > 65535 {
			problems = append(problems, problem(l.Name, FieldMembers, "Invalid member port",
				"Member %s has port %d, which is not between 1 and 65535.", member.Address, member.Port))
		}

		if seen[member] {
			problems = append(problems, problem(l.Name, FieldMembers, "Duplicate member",
				"Member %s:%d appears twice; region requires members to be unique by address and port.", member.Address, member.Port))
		}

		seen[member] = true
	}

	return problems
}

// HealthCheckWithDefaults is a health check as region stores it: every zero field
// given region's default.
func HealthCheckWithDefaults(check HealthCheck) HealthCheck {
	defaulted := func(value, fallback int) int {
		if value == 0 {
			return fallback
		}

		return value
	}

	return HealthCheck{
		IntervalSeconds:    defaulted(check.IntervalSeconds, DefaultHealthCheckIntervalSeconds),
		TimeoutSeconds:     defaulted(check.TimeoutSeconds, DefaultHealthCheckTimeoutSeconds),
		HealthyThreshold:   defaulted(check.HealthyThreshold, DefaultHealthCheckHealthyThreshold),
		UnhealthyThreshold: defaulted(check.UnhealthyThreshold, DefaultHealthCheckUnhealthyThreshold),
	}
}

func validateHealthCheck(listener string, check HealthCheck) []Problem {
	var problems []Problem

	field := func(name string) string { return FieldHealthCheck + "." + name }

	for _, bound := range []struct {
		name       string
		value, max int
		unit       string
	}{
		{"interval_seconds", check.IntervalSeconds, MaxHealthCheckSeconds, " seconds"},
		{"timeout_seconds", check.TimeoutSeconds, MaxHealthCheckSeconds, " seconds"},
		{"healthy_threshold", check.HealthyThreshold, MaxHealthCheckThreshold, ""},
		{"unhealthy_threshold", check.UnhealthyThreshold, MaxHealthCheckThreshold, ""},
	} {
		if bound.value < 0 || bound.value > bound.max {
			problems = append(problems, problem(listener, field(bound.name), "Invalid health check",
				"%s %d is not between 1 and %d%s.", bound.name, bound.value, bound.max, bound.unit))
		}
	}

	defaulted := HealthCheckWithDefaults(check)
	if len(problems) == 0 && defaulted.TimeoutSeconds >= defaulted.IntervalSeconds {
		problems = append(problems, problem(listener, field("timeout_seconds"), "Health check timeout not below its interval",
			"The timeout (%d seconds) must be shorter than the interval (%d seconds)%s; region refuses it otherwise.",
			defaulted.TimeoutSeconds, defaulted.IntervalSeconds, defaultNote(check)))
	}

	return problems
}

func defaultNote(check HealthCheck) string {
	switch {
	case check.IntervalSeconds == 0:
		return fmt.Sprintf(", which is %d seconds unless set", DefaultHealthCheckIntervalSeconds)
	case check.TimeoutSeconds == 0:
		return fmt.Sprintf(", and the timeout is %d seconds unless set", DefaultHealthCheckTimeoutSeconds)
	}

	return ""
}

// ImmutableChanges returns, for each listener of desired that keeps the name of one in
// current, the change of protocol, port or PROXY protocol region refuses to make in
// place. Renaming the listener removes it and adds a new one, which region accepts.
func ImmutableChanges(current, desired []Listener) []Problem {
	existing := map[string]Listener{}
	for _, listener := range current {
		existing[listener.Name] = listener
	}

	var problems []Problem

	for _, listener := range desired {
		before, ok := existing[listener.Name]
		if !ok {
			continue
		}

		var field, what string

		switch {
		case before.Protocol != listener.Protocol:
			field, what = FieldProtocol, fmt.Sprintf("protocol from %s to %s", before.Protocol, listener.Protocol)
		case before.Port != listener.Port:
			field, what = FieldPort, fmt.Sprintf("port from %d to %d", before.Port, listener.Port)
		case before.ProxyProtocolV2 != listener.ProxyProtocolV2:
			field, what = FieldProxyProtocolV2, fmt.Sprintf("PROXY protocol from %t to %t", before.ProxyProtocolV2, listener.ProxyProtocolV2)
		default:
			continue
		}

		problems = append(problems, problem(listener.Name, field, "Listener cannot change in place",
			"Region cannot change the %s of listener %q: a listener keeps its protocol, port and PROXY protocol "+
				"for as long as it keeps its name. Rename the listener (its key in listeners) to replace it with a new "+
				"one in the same update; the load balancer, its VIP and its public IP stay.", what, listener.Name))
	}

	return problems
}

// CheckVIP returns why region would refuse vip as the virtual IP of a load balancer
// on a network of prefix, or nil.
func CheckVIP(vip, prefix string) error {
	address, ok := CanonicalAddress(vip)
	if !ok {
		return fmt.Errorf("%q is not an IPv4 address", vip)
	}

	network, err := netip.ParsePrefix(prefix)
	if err != nil {
		return fmt.Errorf("the network's prefix %q is not a CIDR", prefix)
	}

	if !network.Contains(netip.MustParseAddr(address)) {
		return fmt.Errorf("%s is not in the network's prefix %s; choose an address within it, or none to let the network choose", vip, prefix)
	}

	return nil
}

// CanonicalAddress is an IPv4 address as region writes it, and whether it is one.
func CanonicalAddress(address string) (string, bool) {
	parsed, err := netip.ParseAddr(address)
	if err != nil || !parsed.Unmap().Is4() {
		return "", false
	}

	return parsed.Unmap().String(), true
}

// CanonicalCIDR is an IPv4 CIDR as region stores it, its host bits cleared, and
// whether it is one.
func CanonicalCIDR(cidr string) (string, bool) {
	prefix, err := netip.ParsePrefix(cidr)
	if err != nil || !prefix.Addr().Is4() {
		return "", false
	}

	return prefix.Masked().String(), true
}

// SameCIDRs reports whether two lists of CIDRs admit the same sources as region
// stores them: in any order, host bits ignored, an empty list the same as none.
func SameCIDRs(a, b []string) bool {
	canonical := func(cidrs []string) []string {
		out := make([]string, 0, len(cidrs))

		for _, cidr := range cidrs {
			if c, ok := CanonicalCIDR(cidr); ok {
				out = append(out, c)
			} else {
				out = append(out, cidr)
			}
		}

		slices.Sort(out)

		return slices.Compact(out)
	}

	return slices.Equal(canonical(a), canonical(b))
}
