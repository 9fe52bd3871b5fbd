package seams_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// group is a set of resource types that one configuration builds together, under one
// provider block: what they need of the provider decides it.
type group string

const (
	// groupInstances depend on the instance path (instance_api): they run on both
	// back ends (acctest.ForEachBackend).
	groupInstances group = "instances"
	// groupRegion are region's objects, which no instance path reaches: the same
	// requests on either back end, so they run once, on the default one.
	groupRegion group = "region"
	// groupIdentity are identity's objects, which only an organization administrator
	// may make; no instance path reaches them either, so they run once.
	groupIdentity group = "identity"
)

var groups = []group{groupInstances, groupRegion, groupIdentity}

// attribute is one line of a resource block: a name and an HCL expression.
type attribute struct{ name, value string }

// fixture is what the suite knows of one resource type: how to build one object of
// it, how to import it, and where it meets other objects. Every resource type the
// provider serves has one, or TestSeamsCoverTheSchema fails naming it.
type fixture struct {
	group group
	// attributes are those of one object of the type called name, from values known
	// at plan where the type allows it; support adds the objects they refer to.
	attributes func(w *world, name string) []attribute
	support    func(w *world) string
	// importIDs are the forms `terraform import` takes, for an object of ID id.
	importIDs func(w *world, id string) []string
	// references say, for each attribute the schema says names other objects, what
	// a value unknown at plan stands for.
	references map[string]referenceFixture
	// refusals are the changes the provider refuses in place, each with the
	// change of a replacing attribute that makes the object new.
	refusals []refusal
	// remove deletes the object of ID id behind Terraform's back, as another person
	// would, through the wire client.
	remove func(ctx context.Context, w *world, id string) error
	// holds are the objects of other types that an object of this type holds: by
	// attribute (a reference attribute), the type it names.
	holds map[string]holding
}

// holding is what an attribute of a holder names.
type holding struct {
	held string
	// refused says that Unikorn refuses the held object's delete while it is held
	// (region's "in use"); identity takes a membership out itself.
	refused bool
}

// referenceFixture makes a reference attribute's value unknown at plan: the value
// of target (an HCL expression: an object new in the same apply, or an existing ID)
// passed through a terraform_data, whose output is unknown whenever it is created
// or replaced.
type referenceFixture struct {
	target func(w *world) string
	// known is, for a collection, the ID of an existing object given beside the
	// unknown element.
	known func(w *world) string
	// support adds what target refers to.
	support func(w *world) string
}

// refusal is a change refused in place (at plan) and how the same object is
// replaced: a replacing attribute's change that the plan makes with it.
type refusal struct {
	name string
	// base and refused are the configuration's values before and with the change:
	// attributes overriding the fixture's; again is refused once more from refused.
	base, refused, again []attribute
	// replacing is the change of a replacing attribute made with the refused one.
	replacing func(w *world) []attribute
	// message is the refusal's summary, as the provider words it.
	message string
}

// fixtures are keyed by resource type name. They are set by init, as their
// functions read the table themselves.
var fixtures map[string]fixture

//nolint:gochecknoinits // the table refers to itself
func init() {
	fixtures = map[string]fixture{
		"unikorn_network": {
			group: groupRegion,
			attributes: func(w *world, name string) []attribute {
				return []attribute{
					{"name", quote(hclName(name))},
					{"region_id", quote(w.region)},
					{"prefix", quote(w.prefix(name))},
					{"reservations", "{\n    prefix_length                   = 25\n    provider_reserved_prefix_length = 28\n  }"},
				}
			},
			importIDs: byID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.env.Client.DeleteNetwork(ctx, id) },
			references: map[string]referenceFixture{
				"region_id":       existing(func(w *world) string { return w.region }),
				"organization_id": existing(func(w *world) string { return w.org }),
				"project_id":      existing(func(w *world) string { return w.project }),
			},
		},
		"unikorn_security_group": {
			group: groupRegion,
			attributes: func(w *world, name string) []attribute {
				return []attribute{
					{"name", quote(hclName(name))},
					{"network_id", quote(w.network)},
					{"rules", `[{ direction = "ingress", protocol = "tcp", port = 22 }]`},
				}
			},
			importIDs: byID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.env.Client.DeleteSecurityGroup(ctx, id) },
			references: map[string]referenceFixture{
				"network_id": newTarget("unikorn_network", nil),
			},
		},
		"unikorn_ssh_certificate_authority": {
			group: groupRegion,
			attributes: func(w *world, name string) []attribute {
				return []attribute{{"name", quote(hclName(name))}, {"public_key", quote(w.authorityKey)}}
			},
			importIDs: byID,
			remove: func(ctx context.Context, w *world, id string) error {
				return w.env.Client.DeleteSSHCertificateAuthority(ctx, id)
			},
			references: map[string]referenceFixture{
				"organization_id": existing(func(w *world) string { return w.org }),
				"project_id":      existing(func(w *world) string { return w.project }),
			},
		},
		"unikorn_load_balancer": {
			group: groupRegion,
			attributes: func(w *world, name string) []attribute {
				return []attribute{
					{"name", quote(hclName(name))},
					{"network_id", quote(w.network)},
					{"listeners", "{\n    web = { protocol = \"tcp\", port = 443 }\n  }"},
				}
			},
			importIDs: byID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.env.Client.DeleteLoadBalancer(ctx, id) },
			references: map[string]referenceFixture{
				"network_id": newTarget("unikorn_network", nil),
			},
			refusals: []refusal{{
				name:      "listener port",
				base:      []attribute{{"listeners", "{\n    web = { protocol = \"tcp\", port = 443 }\n  }"}},
				refused:   []attribute{{"listeners", "{\n    web = { protocol = \"tcp\", port = 8443 }\n  }"}},
				again:     []attribute{{"listeners", "{\n    web = { protocol = \"tcp\", port = 443 }\n  }"}},
				replacing: func(*world) []attribute { return []attribute{{"vip_address", `"10.0.0.200"`}} },
				message:   "Listener cannot change in place",
			}},
		},
		"unikorn_file_storage": {
			group: groupRegion,
			attributes: func(w *world, name string) []attribute {
				return []attribute{
					{"name", quote(hclName(name))},
					{"region_id", quote(w.region)},
					{"storage_class_id", quote(w.storageClass)},
					{"size_gib", "3"},
				}
			},
			importIDs: byID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.env.Client.DeleteFileStorage(ctx, id) },
			references: map[string]referenceFixture{
				"region_id":        existing(func(w *world) string { return w.region }),
				"storage_class_id": existing(func(w *world) string { return w.storageClass }),
				"organization_id":  existing(func(w *world) string { return w.org }),
				"project_id":       existing(func(w *world) string { return w.project }),
				"attachments":      newTarget("unikorn_network", func(w *world) string { return quote(w.network) }),
			},
			holds: map[string]holding{"attachments": {held: "unikorn_network", refused: true}},
			refusals: []refusal{{
				name:      "shrink",
				base:      []attribute{{"size_gib", "5"}},
				refused:   []attribute{{"size_gib", "4"}},
				again:     []attribute{{"size_gib", "3"}},
				replacing: func(w *world) []attribute { return []attribute{{"storage_class_id", quote(w.otherStorageClass)}} },
				message:   "File storage cannot shrink",
			}},
		},
		"unikorn_compute_instance": {
			group: groupInstances,
			attributes: func(w *world, name string) []attribute {
				return []attribute{
					{"name", quote(hclName(name))},
					{"network_id", quote(w.network)},
					{"flavor_id", quote(w.flavor)},
					{"image_id", quote(w.image)},
				}
			},
			importIDs: func(w *world, id string) []string { return []string{id, w.org + "/" + w.project + "/" + id} },
			remove:    removeInstance,
			references: map[string]referenceFixture{
				"network_id":                   newTarget("unikorn_network", nil),
				"flavor_id":                    existing(func(w *world) string { return w.flavor }),
				"image_id":                     existing(func(w *world) string { return w.image }),
				"ssh_certificate_authority_id": newTarget("unikorn_ssh_certificate_authority", nil),
				"security_group_ids":           newTarget("unikorn_security_group", func(w *world) string { return quote(w.knownSecurityGroup) }),
			},
			holds: map[string]holding{"security_group_ids": {held: "unikorn_security_group", refused: true}},
		},
		"unikorn_snapshot": {
			group: groupInstances,
			attributes: func(_ *world, name string) []attribute {
				return []attribute{{"instance_id", "unikorn_compute_instance.seam_source.id"}, {"name", quote(hclName(name))}}
			},
			support:   sourceInstance,
			importIDs: byID,
			remove: func(ctx context.Context, w *world, id string) error {
				return w.env.Client.DeleteImage(ctx, w.org, w.region, id)
			},
			references: map[string]referenceFixture{
				"instance_id": {target: func(*world) string { return "unikorn_compute_instance.seam_source.id" }, support: sourceInstance},
			},
		},
		"unikorn_image": {
			group: groupRegion,
			attributes: func(w *world, name string) []attribute {
				return []attribute{
					{"name", quote(hclName(name))},
					{"region_id", quote(w.region)},
					{"uri", quote("https://images.example.com/" + hclName(name) + ".raw")},
					{"architecture", quote("x86_64")},
					{"virtualization", quote("virtualized")},
					{"os", "{\n    kernel  = \"linux\"\n    family  = \"debian\"\n    distro  = \"ubuntu\"\n    version = \"24.04\"\n  }"},
				}
			},
			importIDs: byID,
			remove: func(ctx context.Context, w *world, id string) error {
				return w.env.Client.DeleteImage(ctx, w.org, w.region, id)
			},
			references: map[string]referenceFixture{
				"region_id":       existing(func(w *world) string { return w.region }),
				"organization_id": existing(func(w *world) string { return w.org }),
			},
		},
		"unikorn_group": {
			group: groupIdentity,
			attributes: func(w *world, name string) []attribute {
				return []attribute{{"name", quote(hclName(name))}, {"role_ids", fmt.Sprintf("[%s]", quote(w.readerRole))}}
			},
			importIDs: byOrganizationAndID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.admin.DeleteGroup(ctx, w.org, id) },
			references: map[string]referenceFixture{
				"organization_id": existing(func(w *world) string { return w.org }),
				"role_ids": {
					target: literal(func(w *world) string { return w.userRole }),
					known:  func(w *world) string { return quote(w.readerRole) },
				},
				"user_ids": {
					target: literal(func(w *world) string { return w.user }),
					known:  func(w *world) string { return quote(w.adminUser) },
				},
				"service_account_ids": newTarget("unikorn_service_account", func(w *world) string { return quote(w.knownServiceAccount) }),
			},
			holds: map[string]holding{"service_account_ids": {held: "unikorn_service_account"}},
		},
		"unikorn_project": {
			group: groupIdentity,
			attributes: func(w *world, name string) []attribute {
				return []attribute{{"name", quote(hclName(name))}, {"timeouts", "{\n    delete = \"2m\"\n  }"}}
			},
			importIDs: byOrganizationAndID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.admin.DeleteProject(ctx, w.org, id) },
			references: map[string]referenceFixture{
				"organization_id": existing(func(w *world) string { return w.org }),
				"group_ids":       newTarget("unikorn_group", func(w *world) string { return quote(w.knownGroup) }),
			},
			holds: map[string]holding{"group_ids": {held: "unikorn_group"}},
		},
		"unikorn_service_account": {
			group: groupIdentity,
			attributes: func(w *world, name string) []attribute {
				return []attribute{{"name", quote(hclName(name))}, {"group_ids", fmt.Sprintf("[%s]", quote(w.knownGroup))}}
			},
			importIDs: byOrganizationAndID,
			remove: func(ctx context.Context, w *world, id string) error {
				return w.admin.DeleteServiceAccount(ctx, w.org, id)
			},
			references: map[string]referenceFixture{
				"organization_id": existing(func(w *world) string { return w.org }),
				"group_ids":       newTarget("unikorn_group", func(w *world) string { return quote(w.knownGroup) }),
			},
			holds: map[string]holding{"group_ids": {held: "unikorn_group"}},
		},
		"unikorn_user": {
			group: groupIdentity,
			attributes: func(w *world, name string) []attribute {
				return []attribute{{"subject", quote(hclName(name) + "@example.com")}, {"group_ids", fmt.Sprintf("[%s]", quote(w.knownGroup))}}
			},
			importIDs: byOrganizationAndID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.admin.DeleteUser(ctx, w.org, id) },
			references: map[string]referenceFixture{
				"organization_id": existing(func(w *world) string { return w.org }),
				"group_ids":       newTarget("unikorn_group", func(w *world) string { return quote(w.knownGroup) }),
			},
			holds: map[string]holding{"group_ids": {held: "unikorn_group"}},
		},
	}
}

// removeInstance deletes an instance through its back end's own API: compute's
// instance, with the provider's (user's) token, or region's server, whose ID is the
// instance's.
func removeInstance(ctx context.Context, w *world, id string) error {
	if w.env.Settings.InstanceAPI == acctest.ComputeBackend.InstanceAPI {
		return w.env.ClientAs(w.t, w.env.Settings.Token).DeleteInstance(ctx, id)
	}

	return w.env.Client.DeleteServer(ctx, id)
}

func byID(_ *world, id string) []string { return []string{id} }

func byOrganizationAndID(w *world, id string) []string { return []string{id, w.org + "/" + id} }

// literal is an existing object's ID as a reference's target.
func literal(id func(w *world) string) func(w *world) string {
	return func(w *world) string { return quote(id(w)) }
}

// existing is an existing object's ID as a reference's target.
func existing(id func(w *world) string) referenceFixture {
	return referenceFixture{target: literal(id)}
}

// newTarget is a reference to an object of typeName new in the same apply, made from
// its own fixture (a network's with room for file storage); known, for a collection,
// is the ID of an existing object given beside it.
func newTarget(typeName string, known func(w *world) string) referenceFixture {
	return referenceFixture{
		target:  func(*world) string { return typeName + ".seam_target.id" },
		support: func(w *world) string { return block(w, typeName, "seam_target", nil) },
		known:   known,
	}
}

// sourceInstance is the instance a snapshot is made of, new in the same apply.
func sourceInstance(w *world) string {
	return block(w, "unikorn_compute_instance", "seam_source", nil)
}

// block writes a resource block of typeName called name from the fixture's
// attributes, overridden and extended by with.
func block(w *world, typeName, name string, with []attribute) string {
	attributes := fixtures[typeName].attributes(w, name)

	for _, override := range with {
		found := false

		for i := range attributes {
			if attributes[i].name == override.name {
				attributes[i].value, found = override.value, true
			}
		}

		if !found {
			attributes = append(attributes, override)
		}
	}

	var b strings.Builder

	fmt.Fprintf(&b, "resource %q %q {\n", typeName, name)

	for _, a := range attributes {
		if a.name == "lifecycle" {
			b.WriteString("  lifecycle {\n    create_before_destroy = true\n  }\n")

			continue
		}

		fmt.Fprintf(&b, "  %s = %s\n", a.name, a.value)
	}

	b.WriteString("}\n")

	return b.String()
}

// hclName turns a Terraform resource name into a name Unikorn takes (letters,
// digits and dashes).
func hclName(name string) string {
	return strings.ReplaceAll(name, "_", "-")
}

func quote(s string) string { return fmt.Sprintf("%q", s) }
