package loadbalancer

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func tcp(name string, port int, members ...unikorn.LoadBalancerMember) unikorn.LoadBalancerListener {
	if members == nil {
		members = []unikorn.LoadBalancerMember{}
	}

	return unikorn.LoadBalancerListener{Name: name, Protocol: unikorn.LoadBalancerProtocolTCP, Port: port, Pool: unikorn.LoadBalancerPool{Members: members}}
}

// dns is a UDP listener on port 53.
func dns() unikorn.LoadBalancerListener {
	listener := tcp("dns", 53)
	listener.Protocol = unikorn.LoadBalancerProtocolUDP

	return listener
}

func member(address string, port int) unikorn.LoadBalancerMember {
	return unikorn.LoadBalancerMember{Address: address, Port: port}
}

// refusal returns how region answers err: 400, 422, or 0 for no refusal of this package.
func refusal(err error) int {
	var e *Error
	switch {
	case !errors.As(err, &e):
		return 0
	case e.Unprocessable:
		return 422
	}

	return 400
}

func TestSchemaRefusesWhatTheContractForbids(t *testing.T) {
	long := make([]byte, 64)
	for i := range long {
		long[i] = 'a'
	}

	for name, listener := range map[string]unikorn.LoadBalancerListener{
		"name with a capital":      tcp("Web", 80),
		"name starting with digit": tcp("1web", 80),
		"name ending with dash":    tcp("web-", 80),
		"name too long":            tcp(string(long), 80),
		"protocol":                 {Name: "web", Protocol: "http", Port: 80, Pool: unikorn.LoadBalancerPool{Members: []unikorn.LoadBalancerMember{}}},
		"port zero":                tcp("web", 0),
		"port too high":            tcp("web", 65536),
		"member port":              tcp("web", 80, member("10.0.0.5", 0)),
		"idle timeout zero":        withIdle(tcp("web", 80), 0),
		"idle timeout too long":    withIdle(tcp("web", 80), 86401),
		"CIDR without length":      withCIDRs(tcp("web", 80), "10.0.0.0"),
		"IPv6 CIDR":                withCIDRs(tcp("web", 80), "::/0"),
		"health interval":          withHealthCheck(tcp("web", 80), unikorn.LoadBalancerHealthCheck{IntervalSeconds: integer(301)}),
		"health threshold":         withHealthCheck(tcp("web", 80), unikorn.LoadBalancerHealthCheck{HealthyThreshold: integer(11)}),
		"health unhealthy zero":    withHealthCheck(tcp("web", 80), unikorn.LoadBalancerHealthCheck{UnhealthyThreshold: integer(0)}),
	} {
		t.Run(name, func(t *testing.T) {
			err := CheckSchema(unikorn.LoadBalancerSpec{Listeners: []unikorn.LoadBalancerListener{listener}})
			assert.Equal(t, 400, refusal(err), "%v", err)
		})
	}

	assert.Equal(t, 400, refusal(CheckSchema(unikorn.LoadBalancerSpec{})), "at least one listener")
	require.NoError(t, CheckSchema(unikorn.LoadBalancerSpec{Listeners: []unikorn.LoadBalancerListener{tcp("web", 80, member("10.0.0.5", 8080))}}))
}

func withIdle(listener unikorn.LoadBalancerListener, seconds int) unikorn.LoadBalancerListener {
	listener.IdleTimeoutSeconds = integer(seconds)

	return listener
}

func withCIDRs(listener unikorn.LoadBalancerListener, cidrs ...string) unikorn.LoadBalancerListener {
	listener.AllowedCIDRs = cidrs

	return listener
}

func withHealthCheck(listener unikorn.LoadBalancerListener, check unikorn.LoadBalancerHealthCheck) unikorn.LoadBalancerListener {
	listener.Pool.HealthCheck = &check

	return listener
}

func TestNormalizeRefusesWhatTheHandlerForbids(t *testing.T) {
	proxy := tcp("dns", 53)
	proxy.Protocol = unikorn.LoadBalancerProtocolUDP
	proxy.Pool.ProxyProtocolV2 = boolean(true)

	idle := dns()
	idle.IdleTimeoutSeconds = integer(30)

	for name, tc := range map[string]struct {
		listeners []unikorn.LoadBalancerListener
		status    int
		message   string
	}{
		"duplicate names":          {[]unikorn.LoadBalancerListener{tcp("web", 80), tcp("web", 443)}, 422, "listener names must be unique"},
		"duplicate protocol+port":  {[]unikorn.LoadBalancerListener{tcp("web", 80), tcp("www", 80)}, 422, "listener protocol and port combinations must be unique"},
		"same port, two protocols": {[]unikorn.LoadBalancerListener{tcp("web", 53), dns()}, 0, ""},
		"duplicate members":        {[]unikorn.LoadBalancerListener{tcp("web", 80, member("10.0.0.5", 80), member("10.0.0.5", 80))}, 422, "pool members must be unique by address and port"},
		"same address, two ports":  {[]unikorn.LoadBalancerListener{tcp("web", 80, member("10.0.0.5", 80), member("10.0.0.5", 81))}, 0, ""},
		"UDP idle timeout":         {[]unikorn.LoadBalancerListener{idle}, 422, "idleTimeoutSeconds is only supported for TCP listeners"},
		"UDP PROXY protocol":       {[]unikorn.LoadBalancerListener{proxy}, 422, "proxyProtocolV2 is only supported for TCP listeners"},
		"timeout equals interval": {[]unikorn.LoadBalancerListener{withHealthCheck(tcp("web", 80), unikorn.LoadBalancerHealthCheck{
			IntervalSeconds: integer(5),
		})}, 422, "timeoutSeconds must be less than intervalSeconds"},
		"timeout above default interval": {[]unikorn.LoadBalancerListener{withHealthCheck(tcp("web", 80), unikorn.LoadBalancerHealthCheck{
			TimeoutSeconds: integer(10),
		})}, 422, "timeoutSeconds must be less than intervalSeconds"},
		"member not IPv4":  {[]unikorn.LoadBalancerListener{tcp("web", 80, member("fd00::5", 80))}, 400, "member address must be a valid IPv4 address"},
		"member hostname":  {[]unikorn.LoadBalancerListener{tcp("web", 80, member("web.example.com", 80))}, 400, "member address must be a valid IPv4 address"},
		"CIDR bad address": {[]unikorn.LoadBalancerListener{withCIDRs(tcp("web", 80), "010.0.0.0/8")}, 400, "allowedCidrs must contain valid IPv4 CIDR prefixes"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Normalize(unikorn.LoadBalancerSpec{Listeners: tc.listeners})
			assert.Equal(t, tc.status, refusal(err), "%v", err)

			if tc.message != "" {
				assert.EqualError(t, err, tc.message)
			}
		})
	}
}

func TestNormalizeStoresRegionsDefaultsAndForms(t *testing.T) {
	web := tcp("web", 80, member("10.0.0.7", 8080), member("10.0.0.5", 8080))
	web.AllowedCIDRs = []string{"192.0.2.77/24", "10.1.2.3/32"}
	web.Pool.HealthCheck = &unikorn.LoadBalancerHealthCheck{IntervalSeconds: integer(20)}

	open := tcp("open", 443)
	open.AllowedCIDRs = []string{}

	dns := dns()

	spec, err := Normalize(unikorn.LoadBalancerSpec{Listeners: []unikorn.LoadBalancerListener{web, open, dns}})
	require.NoError(t, err)

	assert.Equal(t, unikorn.LoadBalancerSpec{
		PublicIP: boolean(false),
		Listeners: []unikorn.LoadBalancerListener{{
			Name: "web", Protocol: "tcp", Port: 80,
			AllowedCIDRs:       []string{"192.0.2.0/24", "10.1.2.3/32"},
			IdleTimeoutSeconds: integer(60),
			Pool: unikorn.LoadBalancerPool{
				ProxyProtocolV2: boolean(false),
				// Order is kept as written.
				Members: []unikorn.LoadBalancerMember{member("10.0.0.7", 8080), member("10.0.0.5", 8080)},
				HealthCheck: &unikorn.LoadBalancerHealthCheck{
					IntervalSeconds: integer(20), TimeoutSeconds: integer(5), HealthyThreshold: integer(2), UnhealthyThreshold: integer(2),
				},
			},
		}, {
			Name: "open", Protocol: "tcp", Port: 443, IdleTimeoutSeconds: integer(60),
			Pool: unikorn.LoadBalancerPool{ProxyProtocolV2: boolean(false), Members: []unikorn.LoadBalancerMember{}},
		}, {
			Name: "dns", Protocol: "udp", Port: 53,
			Pool: unikorn.LoadBalancerPool{ProxyProtocolV2: boolean(false), Members: []unikorn.LoadBalancerMember{}},
		}},
	}, spec)

	// A null member list is stored as an empty one: the contract requires the member.
	nullMembers := tcp("web", 80)
	nullMembers.Pool.Members = nil
	spec, err = Normalize(unikorn.LoadBalancerSpec{PublicIP: boolean(true), Listeners: []unikorn.LoadBalancerListener{nullMembers}})
	require.NoError(t, err)
	assert.NotNil(t, spec.Listeners[0].Pool.Members)
	assert.True(t, *spec.PublicIP)
}

func TestVIPMustLieInTheNetwork(t *testing.T) {
	vip, err := CheckVIP("10.0.0.200", "10.0.0.0/24")
	require.NoError(t, err)
	assert.Equal(t, "10.0.0.200", vip)

	_, err = CheckVIP("10.0.1.200", "10.0.0.0/24")
	assert.Equal(t, 422, refusal(err))
	assert.EqualError(t, err, "vipAddress must be within the selected network CIDR")

	_, err = CheckVIP("10.0.0", "10.0.0.0/24")
	assert.Equal(t, 400, refusal(err))
}

func TestAnExistingListenerKeepsProtocolPortAndProxyProtocol(t *testing.T) {
	current := []unikorn.LoadBalancerListener{tcp("web", 80), dns()}

	proxied := tcp("web", 80)
	proxied.Pool.ProxyProtocolV2 = boolean(true)

	for name, tc := range map[string]struct {
		required []unikorn.LoadBalancerListener
		message  string
	}{
		"port":           {[]unikorn.LoadBalancerListener{tcp("web", 8080)}, "listener port cannot be changed for an existing listener name"},
		"protocol":       {[]unikorn.LoadBalancerListener{tcp("dns", 53)}, "listener protocol cannot be changed for an existing listener name"},
		"PROXY protocol": {[]unikorn.LoadBalancerListener{proxied}, "listener pool proxyProtocolV2 cannot be changed for an existing listener name"},
		"renamed":        {[]unikorn.LoadBalancerListener{tcp("www", 8080)}, ""},
		"removed":        {[]unikorn.LoadBalancerListener{tcp("web", 80)}, ""},
		"members":        {[]unikorn.LoadBalancerListener{tcp("web", 80, member("10.0.0.9", 80))}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			err := CheckImmutable(current, tc.required)
			if tc.message == "" {
				require.NoError(t, err)

				return
			}

			assert.Equal(t, 422, refusal(err))
			assert.EqualError(t, err, tc.message)
		})
	}
}

func TestAllocationsChargeAPublicIPOnlyWhenAsked(t *testing.T) {
	assert.Equal(t, []unikorn.ResourceAllocation{{Kind: "loadbalancers", Committed: 1}}, Allocations(false))
	assert.Equal(t, []unikorn.ResourceAllocation{{Kind: "loadbalancers", Committed: 1}, {Kind: "publicips", Committed: 1}}, Allocations(true))
}
