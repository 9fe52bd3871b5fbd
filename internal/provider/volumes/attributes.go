// Package volumes serves region's block volumes to Terraform: the unikorn_volume
// resource (storage that outlives the instances it is attached to, which attach it
// through their volume_ids), its data source and list resource, and the
// unikorn_volume_classes data source. It maps their schemas to the volume façade and
// knows nothing of the API beneath it.
package volumes

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// TypeName is the Terraform type of the resource, the data source and the list resource.
const TypeName = "unikorn_volume"

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
	inPlace = "Updated in place."
	// replacedWithLoss is said of what region fixes when it makes a volume: it has no
	// resize and no move, so a new volume is made, empty, and the old one deleted.
	replacedWithLoss = "Changing it replaces the volume: region fixes it when it makes the volume (it has no resize), " +
		"so a new, empty volume is made and the old one and its data are deleted. While an instance holds the " +
		"volume, give it `lifecycle { create_before_destroy = true }`: otherwise Terraform deletes the old " +
		"volume before the instance lets it go, and region refuses."
)

// attributes are the volume's attributes, by name.
var attributes = map[string]attribute{
	"id":          {about: "ID of the volume."},
	"name":        {about: "Name of the volume. Region does not require names to be unique.", rules: validators.NameRule + ".", change: inPlace},
	"description": {about: "Description of the volume.", change: inPlace},
	"tags": {
		about: "Tags of the volume, by name.", change: inPlace,
		rules: "Names under a `*.unikorn-cloud.org` prefix are reserved by Unikorn and rejected.",
	},
	"network_id": {
		about: "Network the volume is made on, and so its organization, project and region. Only instances on this " +
			"network can attach it.",
		change: replacedWithLoss,
	},
	"volume_class_id": {
		about: "Volume class the volume is made of, as listed by the `unikorn_volume_classes` data source: what " +
			"medium backs it, its sizes and performance, and which flavors' instances can attach it.",
		rules:  "It must be a class of the network's region, which is checked at plan when the network is known.",
		change: replacedWithLoss,
	},
	"size_gib": {
		about:  "Size of the volume in GiB (2³⁰ bytes). It counts against the organization's volume quota.",
		rules:  "It must lie within the class's bounds, which is checked at plan.",
		change: replacedWithLoss,
	},
	"organization_id": {about: "Organization of the volume, its network's."},
	"project_id":      {about: "Project of the volume, its network's."},
	"region_id":       {about: "Region of the volume, its network's."},
	"attached": {
		about: "Whether an instance holds the volume, as region reports it now (a region older than this report " +
			"always says `false`). An attached volume cannot be deleted: remove it from the instance's `volume_ids` first.",
	},
}

// resourceDescription is the resource's description of an attribute: what it is, what
// it accepts, and what changing it does.
func resourceDescription(name string) string {
	a := mustAttribute(name)
	description := a.about

	for _, part := range []string{a.rules, a.change} {
		if part != "" {
			description += " " + part
		}
	}

	return description
}

// about is the data source's description of an attribute.
func about(name string) string {
	return mustAttribute(name).about
}

func mustAttribute(name string) attribute {
	a, ok := attributes[name]
	if !ok {
		panic("undescribed volume attribute " + name)
	}

	return a
}
