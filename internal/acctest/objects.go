package acctest

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Attribute is one line of a resource block: a name and an HCL expression. A
// meta-argument block (lifecycle) is one too, its value the block's body.
type Attribute struct{ Name, Value string }

// metaBlocks are the names written as blocks, not as attributes.
var metaBlocks = []string{"lifecycle"}

// Given is what one object of each resource type stands on, each an HCL expression:
// an existing object's ID quoted (Quote), or a reference to one of the same
// configuration ("unikorn_network.base.id").
type Given struct {
	Region, StorageClass, Network, Flavor, Image string
	// VolumeClass is a volume class of the network's region that supports Flavor.
	VolumeClass string
	// KubernetesVersion is a version the region offers clusters of.
	KubernetesVersion string
	// Instance is what a snapshot is made of.
	Instance string
	// AuthorityKey is an SSH certificate authority's public key (NewAuthorityKey).
	AuthorityKey string
	// Role is the role a group grants, and Group the group a service account and a
	// user are in; empty, none.
	Role, Group string
	// Prefix is the prefix of the network called name, which no other network of the
	// configuration may have (Prefixes).
	Prefix func(name string) string
}

// Given is what the environment's objects give: its region, network, flavor and
// image, its storage and volume classes (StorageClassID, VolumeClassID), and network
// prefixes from Prefixes. A test adds what its configuration needs more (an authority
// key, a role).
func (e *Environment) Given(t *testing.T) Given {
	t.Helper()

	return Given{
		Region: Quote(e.RegionID), StorageClass: Quote(e.StorageClassID(t)), Network: Quote(e.NetworkID),
		Flavor: Quote(e.FlavorID), Image: Quote(e.ImageID), VolumeClass: Quote(e.VolumeClassID(t)), Prefix: Prefixes(),
	}
}

// Prefixes hands out network prefixes, one a network name, each a /24 that no other
// name has: 10.100.0.0/24, 10.101.0.0/24 and on.
func Prefixes() func(name string) string {
	var (
		mu       sync.Mutex
		prefixes = map[string]string{}
	)

	return func(name string) string {
		mu.Lock()
		defer mu.Unlock()

		if _, ok := prefixes[name]; !ok {
			prefixes[name] = fmt.Sprintf("10.%d.0.0/24", 100+len(prefixes))
		}

		return prefixes[name]
	}
}

// objects say, once, how to build one object of each resource type the provider
// serves, called name: what every test that needs "one of each" builds on. A new
// resource type adds its object here (the seams suite names a type without one).
var objects = map[string]func(g Given, name string) []Attribute{
	"unikorn_network": func(g Given, name string) []Attribute {
		// Reservations leave room for file storage to attach to it.
		return []Attribute{
			{"name", Quote(unikornName(name))},
			{"region_id", g.Region},
			{"prefix", Quote(g.Prefix(name))},
			{"reservations", "{\n    prefix_length                   = 25\n    provider_reserved_prefix_length = 28\n  }"},
		}
	},
	"unikorn_security_group": func(g Given, name string) []Attribute {
		return []Attribute{
			{"name", Quote(unikornName(name))},
			{"network_id", g.Network},
			{"rules", `[{ direction = "ingress", protocol = "tcp", port = 22 }]`},
		}
	},
	"unikorn_ssh_certificate_authority": func(g Given, name string) []Attribute {
		return []Attribute{{"name", Quote(unikornName(name))}, {"public_key", Quote(g.AuthorityKey)}}
	},
	"unikorn_load_balancer": func(g Given, name string) []Attribute {
		return []Attribute{
			{"name", Quote(unikornName(name))},
			{"network_id", g.Network},
			{"listeners", "{\n    web = { protocol = \"tcp\", port = 443 }\n  }"},
		}
	},
	"unikorn_file_storage": func(g Given, name string) []Attribute {
		return []Attribute{
			{"name", Quote(unikornName(name))},
			{"region_id", g.Region},
			{"storage_class_id", g.StorageClass},
			{"size_gib", "3"},
		}
	},
	"unikorn_volume": func(g Given, name string) []Attribute {
		return []Attribute{
			{"name", Quote(unikornName(name))},
			{"network_id", g.Network},
			{"volume_class_id", g.VolumeClass},
			{"size_gib", "2"},
		}
	},
	"unikorn_kubernetes_cluster": func(g Given, name string) []Attribute {
		return []Attribute{
			{"name", Quote(unikornName(name))},
			{"region_id", g.Region},
			{"version", g.KubernetesVersion},
			{"workload_pools", "{\n    general = { flavor_id = " + g.Flavor + ", replicas = 1 }\n  }"},
		}
	},
	"unikorn_compute_instance": func(g Given, name string) []Attribute {
		return []Attribute{
			{"name", Quote(unikornName(name))},
			{"network_id", g.Network},
			{"flavor_id", g.Flavor},
			{"image_id", g.Image},
		}
	},
	"unikorn_snapshot": func(g Given, name string) []Attribute {
		return []Attribute{{"instance_id", g.Instance}, {"name", Quote(unikornName(name))}}
	},
	"unikorn_image": func(g Given, name string) []Attribute {
		return []Attribute{
			{"name", Quote(unikornName(name))},
			{"region_id", g.Region},
			{"uri", Quote(ImageURL(unikornName(name) + ".raw"))},
			{"architecture", Quote("x86_64")},
			{"virtualization", Quote("virtualized")},
			{"os", "{\n    kernel  = \"linux\"\n    family  = \"debian\"\n    distro  = \"ubuntu\"\n    version = \"24.04\"\n  }"},
		}
	},
	"unikorn_group": func(g Given, name string) []Attribute {
		return []Attribute{{"name", Quote(unikornName(name))}, {"role_ids", list(g.Role)}}
	},
	"unikorn_project": func(_ Given, name string) []Attribute {
		return []Attribute{{"name", Quote(unikornName(name))}}
	},
	"unikorn_service_account": func(g Given, name string) []Attribute {
		return []Attribute{{"name", Quote(unikornName(name))}, {"group_ids", list(g.Group)}}
	},
	"unikorn_user": func(g Given, name string) []Attribute {
		return []Attribute{{"subject", Quote(unikornName(name) + "@example.com")}, {"group_ids", list(g.Group)}}
	},
}

// ObjectTypes are the resource types objects can build, sorted.
func ObjectTypes() []string {
	names := make([]string, 0, len(objects))
	for name := range objects {
		names = append(names, name)
	}

	slices.Sort(names)

	return names
}

// Attributes are those of one object of typeName called name, standing on given.
// It panics for a type that objects cannot build, a fault of the test.
func Attributes(typeName, name string, given Given) []Attribute {
	object, ok := objects[typeName]
	if !ok {
		panic("acctest: no object of resource type " + typeName + " (internal/acctest/objects.go)")
	}

	return object(given, name)
}

// Block writes a resource block of one object of typeName called name, standing on
// given, its attributes overridden (by name) and extended by with.
func Block(typeName, name string, given Given, with ...Attribute) string {
	attributes := Attributes(typeName, name, given)

	for _, override := range with {
		i := slices.IndexFunc(attributes, func(a Attribute) bool { return a.Name == override.Name })
		if i < 0 {
			attributes = append(attributes, override)

			continue
		}

		attributes[i].Value = override.Value
	}

	var b strings.Builder

	fmt.Fprintf(&b, "resource %q %q {\n", typeName, name)

	for _, a := range attributes {
		if slices.Contains(metaBlocks, a.Name) {
			fmt.Fprintf(&b, "  %s {\n    %s\n  }\n", a.Name, a.Value)

			continue
		}

		fmt.Fprintf(&b, "  %s = %s\n", a.Name, a.Value)
	}

	b.WriteString("}\n")

	return b.String()
}

// With is the attribute name set to the HCL expression value: an override of an
// object's own, or one more.
func With(name, value string) Attribute {
	return Attribute{name, value}
}

// Admin is the attribute that puts an object under the administrator's provider
// block of ProviderConfigWithAdmin.
var Admin = Attribute{"provider", "unikorn.admin"}

// unikornName turns a Terraform resource name into a name Unikorn takes (letters,
// digits and dashes).
func unikornName(name string) string {
	return strings.ReplaceAll(name, "_", "-")
}

// list is an HCL list of the expression given, or the empty list for none.
func list(expression string) string {
	if expression == "" {
		return "[]"
	}

	return "[" + expression + "]"
}
