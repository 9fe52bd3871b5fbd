// Package loadbalancing is the Terraform side of region's load balancers: the
// unikorn_load_balancer resource, data source and list resource. It maps their
// schemas to the load balancing façade and knows nothing of the API beneath it.
package loadbalancing

import (
	"fmt"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// TypeName is the Terraform type of the resource, the data source and the list resource.
const TypeName = "unikorn_load_balancer"

// attribute describes one attribute once, for the resource, the data source and the
// list resource (whose results are the resource's), so that they cannot drift apart.
type attribute struct {
	// about says what the attribute is, in words that hold wherever it is shown.
	about string
	// rules say what the resource accepts, when the attribute is an argument.
	rules string
	// change says what changing it does, in the resource.
	change string
}

// What changing an attribute does.
const (
	replaces = "Changing it replaces the load balancer, which loses its VIP and public IP."
	inPlace  = "Updated in place."
)

// attributes are the load balancer's own attributes, by name.
var attributes = map[string]attribute{
	"id":          {about: "ID of the load balancer."},
	"name":        {about: "Name of the load balancer. Region does not require names to be unique.", rules: nameRule, change: inPlace},
	"description": {about: "Description of the load balancer.", change: inPlace},
	"tags": {
		about: "Tags of the load balancer, by name.", change: inPlace,
		rules: "Names under a `*.unikorn-cloud.org` prefix are reserved by Unikorn and rejected.",
	},
	"network_id": {
		about: "Network the load balancer is on, and so its organization, project and region. Its members are " +
			"addresses on this network, typically instances' `private_ip`.",
		change: replaces,
	},
	"vip_address": {
		about: "The load balancer's virtual IP on its network.",
		rules: "Optional: it must lie within the network's prefix, which is checked at plan; " +
			"without it the network chooses one, which is then kept.",
		change: "Changing it replaces the load balancer, which loses its public IP.",
	},
	"public_ip_enabled": {
		about: "Whether the load balancer has a public IP in front of its VIP. It counts against the organization's " +
			"`publicips` quota. The VIP is kept when it changes.",
		change: inPlace,
	},
	"public_ip":           {about: "The load balancer's public IPv4 address, when it has one."},
	"organization_id":     {about: "Organization of the load balancer, its network's."},
	"project_id":          {about: "Project of the load balancer, its network's."},
	"region_id":           {about: "Region of the load balancer, its network's."},
	"provisioning_status": {about: "Region's provisioning status: `pending`, `provisioning`, `provisioned`, `deprovisioning` or `error`."},
	"health_status":       {about: "Region's health status: `unknown`, `healthy`, `degraded` or `error`."},
	"listeners": {
		about: "What the load balancer listens on, by listener name, and where it forwards to. Region knows a listener " +
			"by its name: its protocol, port and PROXY protocol are fixed while the name is kept. When one of them " +
			"changes, the plan warns and the apply stops before anything is sent, naming the listener; rename the " +
			"listener to replace it in the same in-place update. A load balancer being replaced (a new network or " +
			"VIP, `terraform apply -replace`) takes any listeners.",
		rules: fmt.Sprintf("At least one. Names are DNS labels of at most %d characters starting with a lower-case "+
			"letter; no two listeners may share a protocol and port.", loadbalancing.MaxListenerNameLength),
		change: "Listeners are added, removed and changed in place.",
	},
}

// listenerAttributes are a listener's attributes, by name.
var listenerAttributes = map[string]attribute{
	"protocol": {about: "`tcp` or `udp`."},
	"port":     {about: "Port the listener listens on, 1 to 65535."},
	"allowed_cidrs": {
		about: "IPv4 CIDRs of the sources the listener admits; without any it admits every source. " +
			"Region keeps them with their host bits cleared, and a plan shows no difference for that.",
	},
	"idle_timeout_seconds": {
		about: fmt.Sprintf("Seconds an idle connection is kept, 1 to %d. TCP only: a TCP listener without it gets "+
			"region's default of %d, a UDP listener must not set it.", loadbalancing.MaxIdleTimeoutSeconds, loadbalancing.DefaultIdleTimeoutSeconds),
	},
	"proxy_protocol_v2": {about: "Whether connections reach the members with a PROXY protocol v2 header. TCP only; default `false`."},
	"members": {
		about: "The pool's members, each an IPv4 address and a port, typically an instance's `private_ip`; may be empty.",
	},
	"member_address": {about: "IPv4 address of the member."},
	"member_port":    {about: "Port of the member, 1 to 65535."},
	"health_check": {
		about: "How the pool checks its members; without it region checks none. Each field left out takes region's default.",
	},
	"interval_seconds": {
		about: fmt.Sprintf("Seconds between checks, 1 to %d; default %d.", loadbalancing.MaxHealthCheckSeconds, loadbalancing.DefaultHealthCheckIntervalSeconds),
	},
	"timeout_seconds": {
		about: fmt.Sprintf("Seconds a check may take, 1 to %d and less than the interval; default %d.",
			loadbalancing.MaxHealthCheckSeconds, loadbalancing.DefaultHealthCheckTimeoutSeconds),
	},
	"healthy_threshold": {
		about: fmt.Sprintf("Checks in a row that make a member healthy, 1 to %d; default %d.",
			loadbalancing.MaxHealthCheckThreshold, loadbalancing.DefaultHealthCheckHealthyThreshold),
	},
	"unhealthy_threshold": {
		about: fmt.Sprintf("Checks in a row that make a member unhealthy, 1 to %d; default %d.",
			loadbalancing.MaxHealthCheckThreshold, loadbalancing.DefaultHealthCheckUnhealthyThreshold),
	},
}

var nameRule = validators.NameRule + "."

// resourceDescription is the resource's description of an attribute of table: what it
// is, what it accepts, and what changing it does.
func resourceDescription(table map[string]attribute, name string) string {
	a := mustAttribute(table, name)
	description := a.about

	for _, part := range []string{a.rules, a.change} {
		if part != "" {
			description += " " + part
		}
	}

	return description
}

// about is the data source's description of an attribute of table.
func about(table map[string]attribute, name string) string {
	return mustAttribute(table, name).about
}

func mustAttribute(table map[string]attribute, name string) attribute {
	a, ok := table[name]
	if !ok {
		panic("undescribed load balancer attribute " + name)
	}

	return a
}
