package loadbalancing

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func listener(name, protocol string, port int) Listener {
	return Listener{Name: name, Protocol: protocol, Port: port}
}

// fields are the (listener, field) pairs the problems name.
func fields(problems []Problem) []string {
	out := make([]string, 0, len(problems))
	for _, p := range problems {
		out = append(out, p.Listener+"."+p.Field)
	}

	return out
}

func TestValidateListenersNamesTheOffendingListenerAndField(t *testing.T) {
	udpIdle := listener("dns", ProtocolUDP, 53)
	udpIdle.IdleTimeoutSeconds = 30

	udpProxy := listener("syslog", ProtocolUDP, 514)
	udpProxy.ProxyProtocolV2 = true

	badCheck := listener("web", ProtocolTCP, 80)
	badCheck.HealthCheck = &HealthCheck{TimeoutSeconds: 10}

	badMembers := listener("api", ProtocolTCP, 8443)
	badMembers.Members = []Member{{Address: "api.example.com", Port: 443}, {Address: "10.0.0.5", Port: 0}, {Address: "10.0.0.6", Port: 1}, {Address: "10.0.0.6", Port: 1}}
	badMembers.AllowedCIDRs = []string{"10.0.0.0/8", "0.0.0.0"}

	for name, tc := range map[string]struct {
		listeners []Listener
		want      []string
	}{
		"UDP idle timeout":         {[]Listener{udpIdle}, []string{"dns.idle_timeout_seconds"}},
		"UDP PROXY protocol":       {[]Listener{udpProxy}, []string{"syslog.proxy_protocol_v2"}},
		"timeout against default":  {[]Listener{badCheck}, []string{"web.health_check.timeout_seconds"}},
		"members and CIDRs":        {[]Listener{badMembers}, []string{"api.allowed_cidrs", "api.members", "api.members", "api.members"}},
		"name":                     {[]Listener{listener("Web", ProtocolTCP, 80)}, []string{"Web.name"}},
		"protocol and port":        {[]Listener{listener("web", "http", 0)}, []string{"web.protocol", "web.port"}},
		"second on a port":         {[]Listener{listener("web", ProtocolTCP, 80), listener("alt", ProtocolTCP, 80)}, []string{"web.port"}},
		"one port, two protocols":  {[]Listener{listener("web", ProtocolTCP, 53), listener("dns", ProtocolUDP, 53)}, []string{}},
		"no listener":              {nil, []string{"."}},
		"everything region allows": {[]Listener{listener("web", ProtocolTCP, 80), udpIdleless()}, []string{}},
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tc.want, fields(ValidateListeners(tc.listeners)))
		})
	}
}

func udpIdleless() Listener {
	l := listener("dns", ProtocolUDP, 53)
	l.HealthCheck = &HealthCheck{IntervalSeconds: 3, TimeoutSeconds: 2}

	return l
}

func TestAHealthCheckTimeoutSaysWhichDefaultItMeets(t *testing.T) {
	l := listener("web", ProtocolTCP, 80)
	l.HealthCheck = &HealthCheck{TimeoutSeconds: 12}

	problems := ValidateListener(l)
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Detail, "(10 seconds), which is 10 seconds unless set")

	l.HealthCheck = &HealthCheck{IntervalSeconds: 4}
	problems = ValidateListener(l)
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Detail, "the timeout is 5 seconds unless set")
}

func TestImmutableChangesAreTheChangesOfAListenerThatKeepsItsName(t *testing.T) {
	current := []Listener{listener("web", ProtocolTCP, 80), listener("dns", ProtocolUDP, 53)}

	proxied := listener("web", ProtocolTCP, 80)
	proxied.ProxyProtocolV2 = true

	assert.Equal(t, []string{"web.port"}, fields(ImmutableChanges(current, []Listener{listener("web", ProtocolTCP, 8080)})))
	assert.Equal(t, []string{"dns.protocol"}, fields(ImmutableChanges(current, []Listener{listener("dns", ProtocolTCP, 53)})))
	assert.Equal(t, []string{"web.proxy_protocol_v2"}, fields(ImmutableChanges(current, []Listener{proxied})))
	assert.Empty(t, ImmutableChanges(current, []Listener{listener("web-alt", ProtocolTCP, 8080)}), "a rename replaces the listener")

	problem := ImmutableChanges(current, []Listener{listener("web", ProtocolTCP, 8080)})[0]
	assert.Contains(t, problem.Detail, "port from 80 to 8080")
	assert.Contains(t, problem.Detail, "Rename the listener")
}

func TestCheckVIP(t *testing.T) {
	require.NoError(t, CheckVIP("10.0.0.250", "10.0.0.0/24"))

	err := CheckVIP("10.0.1.250", "10.0.0.0/24")
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "not in the network's prefix 10.0.0.0/24"), err.Error())

	require.Error(t, CheckVIP("fd00::1", "10.0.0.0/24"))
}

func TestSameCIDRsIsHowRegionComparesThem(t *testing.T) {
	assert.True(t, SameCIDRs([]string{"10.0.0.1/8", "192.0.2.0/24"}, []string{"192.0.2.0/24", "10.0.0.0/8"}))
	assert.True(t, SameCIDRs(nil, []string{}))
	assert.False(t, SameCIDRs([]string{"10.0.0.0/8"}, []string{"10.0.0.0/16"}))
	assert.False(t, SameCIDRs([]string{"10.0.0.0/8"}, nil))
}

func TestWireDocumentIsOneForOneSpec(t *testing.T) {
	spec := Spec{
		Name: "front", Tags: map[string]string{"b": "2", "a": "1"},
		Listeners: []Listener{
			{Name: "web", Protocol: ProtocolTCP, Port: 80, Members: []Member{{"10.0.0.9", 80}, {"10.0.0.10", 80}}},
			{Name: "dns", Protocol: ProtocolUDP, Port: 53, HealthCheck: &HealthCheck{IntervalSeconds: 20}},
		},
	}

	metadata, wire := spec.wire()
	assert.Equal(t, "a", metadata.Tags[0].Name)
	assert.Equal(t, "dns", wire.Listeners[0].Name, "listeners in name order")
	assert.Equal(t, "10.0.0.10", wire.Listeners[1].Pool.Members[0].Address, "members in address order")
	assert.False(t, *wire.PublicIP, "a boolean is always written")
	assert.Nil(t, wire.Listeners[0].IdleTimeoutSeconds, "a zero is left for region")
	assert.Nil(t, wire.Listeners[0].Pool.HealthCheck.TimeoutSeconds)
	assert.Equal(t, 20, *wire.Listeners[0].Pool.HealthCheck.IntervalSeconds)
	assert.NotNil(t, wire.Listeners[0].Pool.Members, "members are required, so never null")
}
