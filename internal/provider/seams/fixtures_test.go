package seams_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
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

// attribute is one line of a resource block: a name and an HCL expression (an
// acctest.Attribute, which the suite writes shorter).
type attribute struct{ name, value string }

// fixture is what the suite knows of one resource type beside how to build one
// object of it (acctest's, from values known at plan where the type allows it): how
// to import it, and where it meets other objects. Every resource type the provider
// serves has one, or TestSeamsCoverTheSchema fails naming it.
type fixture struct {
	group group
	// with are attributes the suite gives the type's objects beside acctest's;
	// support adds the objects they refer to.
	with    []attribute
	support func(w *world) string
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
	// deleting is what the plan's warning says of an object of the type that the
	// cloud is deleting (Unikorn keeps it, deletionTime set, until it is gone): the
	// summary, with its noun, and what more holds the deletion, if anything.
	deleting []string
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
	// unknown element; it is called once for each configuration that gives one.
	known func(w *world) string
	// support adds what target refers to.
	support func(w *world) string
	// each, when set, stands in for target and support for a reference whose objects
	// have one holder at a time (a volume is attached to one instance): every case
	// gets an object of its own, called name, and known must give a new one each call.
	each func(w *world, name string) (target, support string)
	// instanceAPI, when set, is the only instance path that takes the attribute:
	// the suite gives it no value on the other, which refuses it at plan.
	instanceAPI string
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

// The fixture organization, its project and the region, which most fixtures name as
// they are.
var (
	theRegion       = existing(func(w *world) string { return w.region })
	theOrganization = existing(func(w *world) string { return w.org })
	theProject      = existing(func(w *world) string { return w.project })
)

// fixtures are keyed by resource type name. They are set by init, as their
// functions read the table themselves.
var fixtures map[string]fixture

//nolint:gochecknoinits // the table refers to itself
func init() {
	fixtures = map[string]fixture{
		"unikorn_network": {
			group:     groupRegion,
			deleting:  []string{"The network is being deleted"},
			importIDs: byID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.env.Client.DeleteNetwork(ctx, id) },
			references: map[string]referenceFixture{
				"region_id":       theRegion,
				"organization_id": theOrganization,
				"project_id":      theProject,
			},
		},
		"unikorn_security_group": {
			group:     groupRegion,
			deleting:  []string{"The security group is being deleted"},
			importIDs: byID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.env.Client.DeleteSecurityGroup(ctx, id) },
			references: map[string]referenceFixture{
				"network_id": newTarget("unikorn_network", nil),
			},
		},
		"unikorn_ssh_certificate_authority": {
			group:     groupRegion,
			importIDs: byID,
			remove: func(ctx context.Context, w *world, id string) error {
				return w.env.Client.DeleteSSHCertificateAuthority(ctx, id)
			},
			references: map[string]referenceFixture{
				"organization_id": theOrganization,
				"project_id":      theProject,
			},
		},
		"unikorn_load_balancer": {
			group:     groupRegion,
			deleting:  []string{"The load balancer is being deleted"},
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
			group:     groupRegion,
			deleting:  []string{"The file storage is being deleted"},
			importIDs: byID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.env.Client.DeleteFileStorage(ctx, id) },
			references: map[string]referenceFixture{
				"region_id":        theRegion,
				"storage_class_id": existing(func(w *world) string { return w.storageClass }),
				"organization_id":  theOrganization,
				"project_id":       theProject,
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
		"unikorn_kubernetes_cluster": {
			group:     groupRegion,
			deleting:  []string{"The Kubernetes cluster is being deleted"},
			importIDs: func(w *world, id string) []string { return []string{id, w.org + "/" + id} },
			remove: func(ctx context.Context, w *world, id string) error {
				return w.env.ClientAs(w.t, sandbox.DefaultToken).DeleteKubernetesCluster(ctx, w.org, w.project, id)
			},
			references: map[string]referenceFixture{
				"region_id":       theRegion,
				"organization_id": theOrganization,
				"project_id":      theProject,
			},
		},
		"unikorn_compute_instance": {
			group:     groupInstances,
			deleting:  []string{"The instance is being deleted"},
			importIDs: func(w *world, id string) []string { return []string{id, w.org + "/" + w.project + "/" + id} },
			remove:    removeInstance,
			references: map[string]referenceFixture{
				"network_id":                   newTarget("unikorn_network", nil),
				"flavor_id":                    existing(func(w *world) string { return w.flavor }),
				"image_id":                     existing(func(w *world) string { return w.image }),
				"ssh_certificate_authority_id": newTarget("unikorn_ssh_certificate_authority", nil),
				"security_group_ids":           newTarget("unikorn_security_group", func(w *world) string { return quote(w.knownSecurityGroup) }),
				// Only compute's instances attach volumes, each volume to one of them.
				"volume_ids": {
					each: func(w *world, name string) (string, string) {
						return "unikorn_volume." + name + ".id", block(w, "unikorn_volume", name, nil)
					},
					known:       func(w *world) string { return quote(w.newVolume()) },
					instanceAPI: acctest.ComputeBackend.InstanceAPI,
				},
			},
			holds: map[string]holding{
				"security_group_ids": {held: "unikorn_security_group", refused: true},
				"volume_ids":         {held: "unikorn_volume", refused: true},
			},
		},
		"unikorn_volume": {
			group:     groupRegion,
			deleting:  []string{"The volume is being deleted"},
			importIDs: byID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.env.Client.DeleteVolume(ctx, id) },
			references: map[string]referenceFixture{
				"network_id":      newTarget("unikorn_network", nil),
				"volume_class_id": existing(func(w *world) string { return w.volumeClass }),
			},
		},
		"unikorn_snapshot": {
			group:     groupInstances,
			deleting:  []string{"The snapshot image is being deleted"},
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
			group:     groupRegion,
			deleting:  []string{"The image is being deleted"},
			importIDs: byID,
			remove: func(ctx context.Context, w *world, id string) error {
				return w.env.Client.DeleteImage(ctx, w.org, w.region, id)
			},
			references: map[string]referenceFixture{
				"region_id":       theRegion,
				"organization_id": theOrganization,
			},
		},
		"unikorn_group": {
			group:     groupIdentity,
			importIDs: byOrganizationAndID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.admin.DeleteGroup(ctx, w.org, id) },
			references: map[string]referenceFixture{
				"organization_id": theOrganization,
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
			group:     groupIdentity,
			deleting:  []string{"The project is being deleted", "Identity holds a project's deletion until"},
			with:      []attribute{{"timeouts", "{\n    delete = \"2m\"\n  }"}},
			importIDs: byOrganizationAndID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.admin.DeleteProject(ctx, w.org, id) },
			references: map[string]referenceFixture{
				"organization_id": theOrganization,
				"group_ids":       newTarget("unikorn_group", func(w *world) string { return quote(w.knownGroup) }),
			},
			holds: map[string]holding{"group_ids": {held: "unikorn_group"}},
		},
		"unikorn_service_account": {
			group:     groupIdentity,
			importIDs: byOrganizationAndID,
			remove: func(ctx context.Context, w *world, id string) error {
				return w.admin.DeleteServiceAccount(ctx, w.org, id)
			},
			references: map[string]referenceFixture{
				"organization_id": theOrganization,
				"group_ids":       newTarget("unikorn_group", func(w *world) string { return quote(w.knownGroup) }),
			},
			holds: map[string]holding{"group_ids": {held: "unikorn_group"}},
		},
		"unikorn_user": {
			group:     groupIdentity,
			importIDs: byOrganizationAndID,
			remove:    func(ctx context.Context, w *world, id string) error { return w.admin.DeleteUser(ctx, w.org, id) },
			references: map[string]referenceFixture{
				"organization_id": theOrganization,
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

// block writes a resource block of typeName called name from acctest's object of
// the type and the fixture's attributes, overridden and extended by with.
func block(w *world, typeName, name string, with []attribute) string {
	var overrides []acctest.Attribute
	for _, a := range append(slices.Clone(fixtures[typeName].with), with...) {
		overrides = append(overrides, acctest.Attribute{Name: a.name, Value: a.value})
	}

	return acctest.Block(typeName, name, w.given, overrides...)
}

func quote(s string) string { return fmt.Sprintf("%q", s) }
