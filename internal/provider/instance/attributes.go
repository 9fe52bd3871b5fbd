package instance

import (
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// attribute describes one attribute of an instance once, for the resource, the data
// source (and so the list resource, whose results are the resource's) and the rules
// that decide what a change replaces, so that they cannot drift apart.
type attribute struct {
	// about says what the attribute is, in words that hold wherever it is shown.
	about string
	// rules say what the resource accepts, when the attribute is an argument.
	rules string
	// change says what changing the attribute does.
	change change
	// resourceOnly keeps an attribute out of the data source: user data may hold
	// secrets given write-only, which a look-up must not copy into state.
	resourceOnly bool
}

type change int

const (
	// changesNothing is said of what only the cloud sets, and of what only takes
	// effect through another attribute.
	changesNothing change = iota
	replaces
	updatesInPlace
)

// replacedWithLoss is said of every attribute whose change recreates the server.
const replacedWithLoss = "Changing it replaces the instance: the server, its disk and its IP addresses are lost."

// attributes are the instance's attributes, by name.
var attributes = map[string]attribute{
	"id": {
		about: "The instance ID. It derives from the network and the name (UUIDv5), so the same name on the same " +
			"network always has the same ID.",
	},
	"name": {
		about:  "The instance name, unique on its network; names are immutable.",
		rules:  validators.NameRule + ".",
		change: replaces,
	},
	"network_id": {
		about:  "The network the instance is attached to; the instance's organization, project and region are the network's.",
		change: replaces,
	},
	"flavor_id": {
		about:  "The flavor (CPUs, memory, disk, GPUs); see the `unikorn_flavors` data source.",
		rules:  "Its architecture must match the image's and its disk must hold the image.",
		change: replaces,
	},
	"image_id": {
		about:  "The image the instance boots from; see the `unikorn_images` data source.",
		rules:  "It must be `ready`. Bare-metal images need a bare-metal flavor, virtualized images a virtual one.",
		change: replaces,
	},
	"user_data": {
		resourceOnly: true,
		about:        "Cloud-init configuration or script, applied at first boot only.",
		rules:        "The provider encodes it. It is stored in the state: for secrets use `user_data_wo` instead.",
		change:       replaces,
	},
	"user_data_wo": {
		resourceOnly: true,
		about: "Write-only user data, for configuration that holds secrets: it is sent when the instance is created " +
			"and never stored in the plan or state. Requires Terraform 1.11 or later.",
		rules: "Change `user_data_wo_version` to apply a new value (which replaces the instance).",
	},
	"user_data_wo_version": {
		resourceOnly: true,
		about: "Version of `user_data_wo`; Terraform cannot see write-only values change, so change this number when " +
			"the value changes.",
		change: replaces,
	},
	"ssh_certificate_authority_id": {
		about:  "The SSH certificate authority whose certificates may log in, if any.",
		rules:  "It must be of the network's organization and project. With it, `user_data` must be a cloud-init document.",
		change: replaces,
	},
	"security_group_ids": {
		about:  "The security groups of the instance's network applied to the instance.",
		change: updatesInPlace,
	},
	"public_ip": {
		about:  "Whether the instance has a public IP address, which counts against the organization's `floatingips` quota.",
		rules:  "Defaults to `false`.",
		change: updatesInPlace,
	},
	"allowed_source_addresses": {
		about:  "IPv4 prefixes (CIDR) the instance may send packets from besides its own address, for instances that route traffic.",
		change: updatesInPlace,
	},
	"volume_ids": {
		about: "The volumes (`unikorn_volume`) attached to the instance, each of its network: the whole set, so a volume " +
			"left out is detached. A volume is attached to one instance at a time; when the instance is replaced, its " +
			"volumes keep their data and are attached to the replacement in the same apply.",
		rules: "Only with `instance_api = \"compute\"`: region's server API has no attachments, which the plan says. " +
			"Each volume's class must support the flavor, which the plan checks when both are known.",
		change: updatesInPlace,
	},
	"volume_attachments": {
		about: "The volumes attached, by volume ID: each one's `device`, the name the guest sees it by (e.g. " +
			"`/dev/vdb`), and `status`, compute's provisioning status of the attachment. An apply that attaches a " +
			"volume waits until it is `provisioned`, with its device.",
	},
	"description": {
		about:  "A free-form description.",
		change: updatesInPlace,
	},
	"tags": {
		about:  "Tags (name to value), without those Unikorn reserves.",
		rules:  "Names under a `*.unikorn-cloud.org` prefix are reserved by Unikorn and rejected.",
		change: updatesInPlace,
	},
	"organization_id":   {about: "The organization the instance belongs to, the network's."},
	"project_id":        {about: "The project the instance belongs to, the network's."},
	"region_id":         {about: "The region the instance runs in, the network's."},
	"private_ip":        {about: "The instance's IPv4 address on its network."},
	"public_ip_address": {about: "The instance's public IPv4 address, when it has one."},
	"mac_address":       {about: "The MAC address of the instance's network interface."},
	"power_state": {
		about: "`Pending`, `Running`, `Stopping` or `Stopped`. Change it with the `unikorn_compute_instance_power` " +
			"action; a refresh shows the result.",
	},
	"provisioning_status": {
		about: "The cloud's provisioning status: `pending`, `provisioning`, `provisioned`, `deprovisioning` or `error`; " +
			"`deleted` when the instance was deleted outside Terraform while its quota is still charged, so that the " +
			"next apply replaces it and releases the quota.",
	},
	"health_status": {about: "The cloud's health status: `unknown`, `healthy`, `degraded` or `error`."},
	"creation_time": {about: "When the instance was created (RFC 3339)."},
}

// The attributes of one of volume_attachments.
const (
	descriptionAttachmentDevice = "The name the guest sees the volume by, e.g. `/dev/vdb`; null until it is attached."
	descriptionAttachmentStatus = "Compute's provisioning status of the attachment: `pending`, `provisioning`, " +
		"`provisioned`, `deprovisioning` (being detached) or `error`."
)

// resourceDescription is the resource's description of an attribute: what it is, what
// it accepts, and what changing it does.
func resourceDescription(name string) string {
	a := mustAttribute(name)
	description := a.about

	for _, part := range []string{a.rules, map[change]string{replaces: replacedWithLoss, updatesInPlace: "Updated in place."}[a.change]} {
		if part != "" {
			description += " " + part
		}
	}

	return description
}

// observedDescription is the data source's description of an attribute it reads;
// lookup, when set, says how the attribute also selects the instance.
func observedDescription(name, lookup string) string {
	if lookup == "" {
		return mustAttribute(name).about
	}

	return mustAttribute(name).about + " " + lookup
}

func mustAttribute(name string) attribute {
	a, ok := attributes[name]
	if !ok {
		panic("instance attribute " + name + " is not described") // a programming error, caught by every schema test
	}

	return a
}

// replacingAttributes are the names of the attributes whose change replaces the
// instance, in a stable order.
func replacingAttributes() []string {
	var names []string

	for name, a := range attributes {
		if a.change == replaces {
			names = append(names, name)
		}
	}

	slices.Sort(names)

	return names
}

// replacingChanges names the attributes whose change between state and plan replaces
// the instance.
func replacingChanges(plan tfsdk.Plan, state tfsdk.State) ([]string, error) {
	return planning.Changed(plan, state, replacingAttributes())
}
