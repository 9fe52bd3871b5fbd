package sandbox

import (
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Fixture IDs: present at every fresh start, so tests, examples and documentation can
// name them.
const (
	OrganizationID = "a0000000-0000-4000-8000-000000000001"
	ProjectID      = "a0000000-0000-4000-8000-000000000002"
	OtherProjectID = "a0000000-0000-4000-8000-000000000003"

	// ForeignOrganizationID is another organization, with one project, whose member
	// holds ForeignToken.
	ForeignOrganizationID = "a0000000-0000-4000-8000-000000000011"
	ForeignProjectID      = "a0000000-0000-4000-8000-000000000012"

	// EmptyOrganizationID is an organization with no project, no group but its
	// administrators' and nothing in it: where an administrator starts from nothing.
	EmptyOrganizationID = "a0000000-0000-4000-8000-000000000021"

	// Organization user IDs, as groups and the users API name them: one for each
	// organization a fixture user belongs to. EmptyAdminUserID is AdminUserID's
	// user in the empty organization.
	UserID           = "a0000000-0000-4000-8000-000000000101"
	AdminUserID      = "a0000000-0000-4000-8000-000000000102"
	ForeignUserID    = "a0000000-0000-4000-8000-000000000111"
	EmptyAdminUserID = "a0000000-0000-4000-8000-000000000122"

	// Subjects of the fixture users, their email addresses: what the users API
	// shows and a group's subjects name.
	UserSubject     = "user@sandbox.unikorn-cloud.org"
	AdminSubject    = "admin@sandbox.unikorn-cloud.org"
	ForeignSubject  = "foreign@sandbox.unikorn-cloud.org"
	OutsiderSubject = "outsider@sandbox.unikorn-cloud.org"

	// AdministratorsGroupID and EmptyAdministratorsGroupID are the groups, in the
	// fixture and the empty organization, through which AdminUserID holds the
	// administrator role.
	AdministratorsGroupID      = "a0000000-0000-4000-8000-000000000201"
	EmptyAdministratorsGroupID = "a0000000-0000-4000-8000-000000000221"

	// The roles of identity's chart that groups may hold.
	AdministratorRoleID = identity.AdministratorRoleID
	AuditorRoleID       = identity.AuditorRoleID
	UserRoleID          = identity.UserRoleID
	ReaderRoleID        = identity.ReaderRoleID

	RegionID = "b0000000-0000-4000-8000-000000000001"
	// PrivateRegionID is a region private to the fixture organization, as a region
	// whose spec.security.organizations names it: every other organization is told it
	// does not exist.
	PrivateRegionID = "b0000000-0000-4000-8000-000000000003"

	NetworkDefaultID   = "c0000000-0000-4000-8000-000000000001"
	NetworkSecondaryID = "c0000000-0000-4000-8000-000000000002"
	NetworkOtherID     = "c0000000-0000-4000-8000-000000000003"

	SecurityGroupAllowSSHID     = "d0000000-0000-4000-8000-000000000001"
	SecurityGroupAllowWebID     = "d0000000-0000-4000-8000-000000000002"
	SecurityGroupSecondarySSHID = "d0000000-0000-4000-8000-000000000003"

	SSHCAID      = "e0000000-0000-4000-8000-000000000001"
	OtherSSHCAID = "e0000000-0000-4000-8000-000000000002"

	FlavorStandardID = "11111111-1111-1111-1111-111111111111"
	FlavorGPUID      = "22222222-2222-2222-2222-222222222222"
	FlavorArmID      = "55555555-5555-5555-5555-555555555555"
	FlavorMetalID    = "66666666-6666-6666-6666-666666666666"
	FlavorTinyID     = "12121212-1212-1212-1212-121212121212"

	ImageUbuntuID      = "33333333-3333-3333-3333-333333333333"
	ImageUbuntuGPUID   = "44444444-4444-4444-4444-444444444444"
	ImageUbuntuArmID   = "77777777-7777-7777-7777-777777777777"
	ImageUbuntuMetalID = "88888888-8888-8888-8888-888888888888"
	ImageDebianID      = "99999999-9999-9999-9999-999999999999"

	// File storage classes: two for every organization, one only the fixture
	// organization sees, one only the foreign organization sees, and one of
	// RemoteRegionID, a region this sandbox lists classes of but does not serve.
	StorageClassStandardID  = "fc000000-0000-4000-8000-000000000001"
	StorageClassLegacyID    = "fc000000-0000-4000-8000-000000000002"
	StorageClassDedicatedID = "fc000000-0000-4000-8000-000000000003"
	StorageClassForeignID   = "fc000000-0000-4000-8000-000000000004"
	StorageClassRemoteID    = "fc000000-0000-4000-8000-000000000005"

	RemoteRegionID = "b0000000-0000-4000-8000-000000000002"
)

// Tokens of the fixture users.
const (
	// DefaultToken belongs to a member of the fixture organization with the
	// project-user role on both of its projects.
	DefaultToken = "sandbox-token"
	// OutsiderToken belongs to a valid user who is a member of no organization.
	OutsiderToken = "sandbox-outsider-token"
	// ForeignToken belongs to a valid member of another organization, with the
	// project-user role on its one project: it reads the fixture organization's
	// objects as forbidden (403), never as gone.
	ForeignToken = "sandbox-foreign-token"
	// ServiceToken belongs to a service principal, as the compute service holds: it
	// may use the fixture organization's projects like the fixture user and, unlike
	// any user, call the service-to-service APIs (region's servers, identity's
	// allocations).
	ServiceToken = "sandbox-service-token"
	// AdminToken belongs to AdminUserID, an administrator of the fixture and the empty
	// organization through their administrators groups: it may create projects,
	// groups and service accounts there, which no other fixture user may.
	AdminToken = "sandbox-admin-token"
	// PlatformAdminToken belongs to a platform administrator, as identity names them
	// by subject (--platform-administrator-subjects): the chart's protected
	// platform-administrator role, globally. Only it may set quotas.
	PlatformAdminToken = "sandbox-platform-admin-token"
)

// Public keys of the fixture SSH certificate authorities, in normalized form.
const (
	sandboxCAPublicKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBzTsPHmWKzGT4Ppj0gjE9I0tO/bkR4jUIXrz1g0Nl0Z"
	otherCAPublicKey   = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAR77nRvdG65Y6b93lGIa4bC2vIcV9fjAUG7DUTcHYQU"
)

// Allocation kinds that region itself charges.
const (
	networkAllocationKind     = "networks.region.unikorn-cloud.org"
	fileStorageAllocationKind = "filestorages.region.unikorn-cloud.org"
)

// fixtureTime is the creation time of every fixture, so that a fresh sandbox always
// answers byte for byte the same.
var fixtureTime = time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)

// Global user IDs of the fixture users: one identity user each, whatever the
// organizations it belongs to.
const (
	globalUserID     = "a0000000-0000-4000-8000-000000000301"
	globalAdminID    = "a0000000-0000-4000-8000-000000000302"
	globalForeignID  = "a0000000-0000-4000-8000-000000000311"
	globalOutsiderID = "a0000000-0000-4000-8000-000000000399"
)

// fixtureUsers are the identity users behind the fixture tokens, and their users in
// each organization they belong to. The outsider belongs to none.
var fixtureUsers = []struct {
	id, subject string
	members     map[string]string // organization ID to organization user ID
}{
	{globalUserID, UserSubject, map[string]string{OrganizationID: UserID}},
	{globalAdminID, AdminSubject, map[string]string{OrganizationID: AdminUserID, EmptyOrganizationID: EmptyAdminUserID}},
	{globalForeignID, ForeignSubject, map[string]string{ForeignOrganizationID: ForeignUserID}},
	{globalOutsiderID, OutsiderSubject, nil},
}

// fixturePrincipal is who a fixture token stands for. What it may do is worked out for
// each request (principal), since groups and projects change.
type fixturePrincipal struct {
	// user is the identity user the token is, if any: the principal belongs to the
	// organizations it is a user of, and holds what their groups give it there.
	user string
	// legacy marks the fixture users whose rights predate roles: region's objects and
	// identity's quotas and allocations ask only whether they belong to the
	// organization and may use the project, as they always have. Identity's projects,
	// groups, service accounts and roles ask for the exact permission.
	legacy bool
	// service marks a service principal: only it may call region's servers and
	// identity's allocations, which real Unikorn grants to the compute service alone.
	service bool
	// grant gives the rights that no group holds for it.
	grant func(acl *identity.ACL)
}

func mustRole(id string) identity.Role {
	role, ok := identity.RoleByID(id)
	if !ok {
		panic("unknown fixture role " + id)
	}

	return role
}

var (
	fixtureUser = fixturePrincipal{
		user: globalUserID, legacy: true,
		grant: func(acl *identity.ACL) {
			acl.GrantRole(OrganizationID, mustRole(identity.UserRoleID), ProjectID, OtherProjectID)
		},
	}
	outsider  = fixturePrincipal{user: globalOutsiderID, legacy: true, grant: func(*identity.ACL) {}}
	foreigner = fixturePrincipal{
		user: globalForeignID, legacy: true,
		grant: func(acl *identity.ACL) {
			acl.GrantRole(ForeignOrganizationID, mustRole(identity.UserRoleID), ForeignProjectID)
		},
	}
	// serviceUser holds compute's role in the organizations the sandbox's compute
	// serves, the fixture and the empty one: every project there, made before or
	// after, as compute must reach any project its users make. (Real compute's role
	// is global; here it stays out of the foreign organization, as it always has.)
	serviceUser = fixturePrincipal{
		legacy: true, service: true,
		grant: func(acl *identity.ACL) {
			compute := mustRole(identity.ComputeServiceRoleID)
			for _, organizationID := range []string{OrganizationID, EmptyOrganizationID} {
				acl.GrantRole(organizationID, identity.Role{Organization: compute.Global})
			}
		},
	}
	administrator         = fixturePrincipal{user: globalAdminID, grant: func(*identity.ACL) {}}
	platformAdministrator = fixturePrincipal{grant: func(acl *identity.ACL) {
		acl.GrantGlobal(mustRole(identity.PlatformAdministratorRoleID))
	}}
)

// The catalogue: fixed, read-only, never saved.
var (
	organizations = []unikorn.Organization{{
		Metadata: provisionedMetadata(OrganizationID, "sandbox"),
		Spec:     unikorn.OrganizationSpec{OrganizationType: "adhoc"},
	}, {
		Metadata: provisionedMetadata(ForeignOrganizationID, "foreign"),
		Spec:     unikorn.OrganizationSpec{OrganizationType: "adhoc"},
	}, {
		Metadata: provisionedMetadata(EmptyOrganizationID, "empty"),
		Spec:     unikorn.OrganizationSpec{OrganizationType: "adhoc"},
	}}

	// regions are in name order, as region lists its regions. Both offer the same
	// flavors and global images.
	regions = []catalogueRegion{{
		region: unikorn.Region{Metadata: provisionedMetadata(RegionID, "sandbox-1"), Spec: unikorn.RegionSpec{Type: "simulated"}},
	}, {
		region:        unikorn.Region{Metadata: provisionedMetadata(PrivateRegionID, "sandbox-private"), Spec: unikorn.RegionSpec{Type: "simulated"}},
		organizations: []string{OrganizationID},
	}}

	// flavors are in the contract's order: GPU count, then CPUs, then memory.
	flavors = []unikorn.Flavor{
		fixtureFlavor(FlavorTinyID, "sim-tiny-1", unikorn.FlavorSpec{CPUs: 1, Memory: 2, Disk: 10, Architecture: unikorn.ArchitectureX86_64}),
		fixtureFlavor(FlavorArmID, "sim-arm-2", unikorn.FlavorSpec{CPUs: 2, Memory: 4, Disk: 40, Architecture: unikorn.ArchitectureAarch64}),
		fixtureFlavor(FlavorStandardID, "sim-standard-4", unikorn.FlavorSpec{CPUs: 4, Memory: 8, Disk: 100, Architecture: unikorn.ArchitectureX86_64}),
		fixtureFlavor(FlavorMetalID, "sim-metal-32", unikorn.FlavorSpec{CPUs: 32, Memory: 128, Disk: 1000, Architecture: unikorn.ArchitectureX86_64, Baremetal: true}),
		fixtureFlavor(FlavorGPUID, "sim-gpu-8", unikorn.FlavorSpec{
			CPUs: 8, Memory: 16, Disk: 200, Architecture: unikorn.ArchitectureX86_64,
			GPU: &unikorn.GPUSpec{Vendor: "NVIDIA", Model: "L4", Memory: 16, PhysicalCount: 1, LogicalCount: 1},
		}),
	}

	ubuntu2404 = unikorn.ImageOS{Kernel: "linux", Family: "debian", Distro: "ubuntu", Version: "24.04", Codename: "noble", Variant: "server"}
	debian12   = unikorn.ImageOS{Kernel: "linux", Family: "debian", Distro: "debian", Version: "12", Codename: "bookworm"}

	// globalImages are visible to every organization.
	globalImages = []unikorn.Image{
		fixtureImage(ImageUbuntuID, "ubuntu-24.04-amd64", unikorn.ImageSpec{
			Architecture: unikorn.ArchitectureX86_64, SizeGiB: 20, Virtualization: unikorn.VirtualizationVirtualized, OS: ubuntu2404,
		}),
		fixtureImage(ImageUbuntuGPUID, "ubuntu-24.04-gpu-amd64", unikorn.ImageSpec{
			Architecture: unikorn.ArchitectureX86_64, SizeGiB: 30, Virtualization: unikorn.VirtualizationVirtualized, OS: ubuntu2404,
			GPU: &unikorn.ImageGPU{Vendor: "NVIDIA", Driver: "550.54.15", Models: []string{"L4"}},
		}),
		fixtureImage(ImageUbuntuArmID, "ubuntu-24.04-arm64", unikorn.ImageSpec{
			Architecture: unikorn.ArchitectureAarch64, SizeGiB: 20, Virtualization: unikorn.VirtualizationVirtualized, OS: ubuntu2404,
		}),
		fixtureImage(ImageUbuntuMetalID, "ubuntu-24.04-metal", unikorn.ImageSpec{
			Architecture: unikorn.ArchitectureX86_64, SizeGiB: 50, Virtualization: unikorn.VirtualizationBaremetal, OS: ubuntu2404,
		}),
		fixtureImage(ImageDebianID, "debian-12-amd64", unikorn.ImageSpec{
			Architecture: unikorn.ArchitectureX86_64, SizeGiB: 8, Virtualization: unikorn.VirtualizationAny, OS: debian12,
		}),
	}
)

// quotaKind describes a quota kind the way identity presents it.
type quotaKind struct {
	displayName string
	description string
	// defaultQuantity is the identity chart default, 0 for kinds it does not define.
	defaultQuantity int
}

var quotaKinds = map[string]quotaKind{
	"servers":       {"Servers", "A server, either virtual or bare metal.", 10},
	"gpus":          {"GPUs", "A general purpose GPU.", 40},
	"floatingips":   {"Floating IPs", "A public IP address that can be attached to a server.", 0},
	"publicips":     {"Public IPs", "A public IP address.", 5},
	"networks":      {"Networks", "A layer 3 network.", 5},
	"loadbalancers": {"Load Balancers", "Layer 4 load balancers.", 5},
	"filestorage":   {"File Storage", "Persistent network file storage.", fileStorageQuota},
}

// fileStorageQuota is identity's default `filestorage` quota, 1Ti, in bytes.
const fileStorageQuota = 1 << 40

func provisionedMetadata(id, name string) unikorn.ReadMetadata {
	return unikorn.ReadMetadata{
		StaticMetadata: unikorn.StaticMetadata{
			WriteMetadata: unikorn.WriteMetadata{Name: name},
			ID:            id,
			CreationTime:  fixtureTime,
		},
		ProvisioningStatus: unikorn.ProvisioningProvisioned,
		HealthStatus:       unikorn.HealthHealthy,
	}
}

func fixtureProject(organizationID, id, name string) unikorn.Project {
	return unikorn.Project{
		Metadata: unikorn.OrganizationScopedMetadata{
			ReadMetadata:   provisionedMetadata(id, name),
			OrganizationID: organizationID,
		},
		Spec: unikorn.ProjectSpec{GroupIDs: []string{}},
	}
}

// fixtureFlavor has only an ID and a name: flavors carry no times or statuses.
func fixtureFlavor(id, name string, spec unikorn.FlavorSpec) unikorn.Flavor {
	return unikorn.Flavor{
		Metadata: unikorn.StaticMetadata{WriteMetadata: unikorn.WriteMetadata{Name: name}, ID: id},
		Spec:     spec,
	}
}

func fixtureImage(id, name string, spec unikorn.ImageSpec) unikorn.Image {
	return unikorn.Image{
		Metadata: unikorn.StaticMetadata{WriteMetadata: unikorn.WriteMetadata{Name: name}, ID: id, CreationTime: fixtureTime},
		Spec:     spec,
		Status:   unikorn.ImageStatus{State: unikorn.ImageReady},
	}
}

func findFlavor(id string) *unikorn.Flavor {
	for i := range flavors {
		if flavors[i].Metadata.ID == id {
			return &flavors[i]
		}
	}

	return nil
}

// catalogueRegion is a region and, when it is private, the organizations that may use
// it (its spec.security.organizations, which region never shows).
type catalogueRegion struct {
	region        unikorn.Region
	organizations []string
}

// visibleTo is region's ACL on a region (pkg/handler/region checkAccess): a region
// without organizations is everyone's; a private one is its organizations' and theirs
// whose global scope reads regions (the platform's administrators and services).
func (r *catalogueRegion) visibleTo(caller *principal) bool {
	if r.organizations == nil || slices.Contains(caller.acl.Global[rbacRegions], opRead) {
		return true
	}

	for _, id := range caller.organizations() {
		if slices.Contains(r.organizations, id) {
			return true
		}
	}

	return false
}

// regionVisible reports whether the region exists for the caller: region answers 404
// alike for a region that does not exist and one it may not use, so as not to tell
// that a private region exists.
func regionVisible(caller *principal, id string) bool {
	for i := range regions {
		if regions[i].region.Metadata.ID == id {
			return regions[i].visibleTo(caller)
		}
	}

	return false
}

// visibleRegions are the regions the caller may use.
func visibleRegions(caller *principal) []unikorn.Region {
	visible := []unikorn.Region{}

	for i := range regions {
		if regions[i].visibleTo(caller) {
			visible = append(visible, regions[i].region)
		}
	}

	return visible
}

// fixtureWorld is the world of a fresh start: the fixture networks (charged to the
// quota, as region charges every network), their security groups, the SSH CAs and
// the organization's quota.
func fixtureWorld() (*world, error) {
	w := newWorld()
	w.addIdentityFixtures()

	w.Quotas[OrganizationID] = map[string]int{
		"servers": 10, "gpus": 2, "floatingips": 5, "publicips": 5, "networks": 5, "loadbalancers": 5, "filestorage": fileStorageQuota,
	}

	for _, n := range []struct{ id, name, prefix, project string }{
		{NetworkDefaultID, "default", "10.0.0.0/24", ProjectID},
		{NetworkSecondaryID, "secondary", "10.1.0.0/24", ProjectID},
		{NetworkOtherID, "other", "10.2.0.0/24", OtherProjectID},
	} {
		record, err := newNetworkRecord(n.id, unikorn.WriteMetadata{Name: n.name}, OrganizationID, n.project, RegionID,
			unikorn.NetworkSpec{DNSNameservers: []string{}}, n.prefix, defaultReservations(), fixtureTime)
		if err != nil {
			return nil, err
		}

		applyProvisioning(&record.Network.Metadata.ReadMetadata, unikorn.ProvisioningProvisioned)

		if err := w.chargeNetwork(record, fixtureTime); err != nil {
			return nil, err
		}

		w.Networks[n.id] = record
	}

	tcp := func(port int) unikorn.SecurityGroupRule {
		return unikorn.SecurityGroupRule{Direction: "ingress", Protocol: "tcp", Port: &port}
	}

	for _, sg := range []struct {
		id, name, network string
		rules             []unikorn.SecurityGroupRule
	}{
		{SecurityGroupAllowSSHID, "allow-ssh", NetworkDefaultID, []unikorn.SecurityGroupRule{tcp(22)}},
		{SecurityGroupAllowWebID, "allow-web", NetworkDefaultID, []unikorn.SecurityGroupRule{tcp(80), tcp(443)}},
		{SecurityGroupSecondarySSHID, "secondary-ssh", NetworkSecondaryID, []unikorn.SecurityGroupRule{tcp(22)}},
	} {
		record := newSecurityGroupRecord(sg.id, unikorn.WriteMetadata{Name: sg.name}, &w.Networks[sg.network].Network, sg.rules, fixtureTime)
		applyProvisioning(&record.SecurityGroup.Metadata.ReadMetadata, unikorn.ProvisioningProvisioned)
		w.SecurityGroups[sg.id] = record
	}

	for _, ca := range []struct{ id, name, project, key string }{
		{SSHCAID, "sandbox-ca", ProjectID, sandboxCAPublicKey},
		{OtherSSHCAID, "other-ca", OtherProjectID, otherCAPublicKey},
	} {
		w.SSHCertificateAuthorities[ca.id] = newSSHCertificateAuthority(ca.id, unikorn.WriteMetadata{Name: ca.name}, OrganizationID, ca.project, ca.key, fixtureTime)
	}

	return w, nil
}
