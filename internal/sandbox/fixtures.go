package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Fixture IDs, tokens and subjects: present at every fresh start, so tests, examples
// and documentation can name them (package fixture says what each is).
const (
	OrganizationID              = fixture.OrganizationID
	ProjectID                   = fixture.ProjectID
	OtherProjectID              = fixture.OtherProjectID
	ForeignOrganizationID       = fixture.ForeignOrganizationID
	ForeignProjectID            = fixture.ForeignProjectID
	EmptyOrganizationID         = fixture.EmptyOrganizationID
	UserID                      = fixture.UserID
	AdminUserID                 = fixture.AdminUserID
	ForeignUserID               = fixture.ForeignUserID
	EmptyAdminUserID            = fixture.EmptyAdminUserID
	UserSubject                 = fixture.UserSubject
	AdminSubject                = fixture.AdminSubject
	ForeignSubject              = fixture.ForeignSubject
	OutsiderSubject             = fixture.OutsiderSubject
	AdministratorsGroupID       = fixture.AdministratorsGroupID
	EmptyAdministratorsGroupID  = fixture.EmptyAdministratorsGroupID
	AdministratorRoleID         = fixture.AdministratorRoleID
	AuditorRoleID               = fixture.AuditorRoleID
	UserRoleID                  = fixture.UserRoleID
	ReaderRoleID                = fixture.ReaderRoleID
	RegionID                    = fixture.RegionID
	PrivateRegionID             = fixture.PrivateRegionID
	RemoteRegionID              = fixture.RemoteRegionID
	NetworkDefaultID            = fixture.NetworkDefaultID
	NetworkSecondaryID          = fixture.NetworkSecondaryID
	NetworkOtherID              = fixture.NetworkOtherID
	SecurityGroupAllowSSHID     = fixture.SecurityGroupAllowSSHID
	SecurityGroupAllowWebID     = fixture.SecurityGroupAllowWebID
	SecurityGroupSecondarySSHID = fixture.SecurityGroupSecondarySSHID
	SSHCAID                     = fixture.SSHCAID
	OtherSSHCAID                = fixture.OtherSSHCAID
	FlavorStandardID            = fixture.FlavorStandardID
	FlavorGPUID                 = fixture.FlavorGPUID
	FlavorArmID                 = fixture.FlavorArmID
	FlavorMetalID               = fixture.FlavorMetalID
	FlavorTinyID                = fixture.FlavorTinyID
	ImageUbuntuID               = fixture.ImageUbuntuID
	ImageUbuntuGPUID            = fixture.ImageUbuntuGPUID
	ImageUbuntuArmID            = fixture.ImageUbuntuArmID
	ImageUbuntuMetalID          = fixture.ImageUbuntuMetalID
	ImageDebianID               = fixture.ImageDebianID
	StorageClassStandardID      = fixture.StorageClassStandardID
	StorageClassLegacyID        = fixture.StorageClassLegacyID
	StorageClassDedicatedID     = fixture.StorageClassDedicatedID
	StorageClassForeignID       = fixture.StorageClassForeignID
	StorageClassRemoteID        = fixture.StorageClassRemoteID
	DefaultToken                = fixture.DefaultToken
	OutsiderToken               = fixture.OutsiderToken
	ForeignToken                = fixture.ForeignToken
	ServiceToken                = fixture.ServiceToken
	AdminToken                  = fixture.AdminToken
	PlatformAdminToken          = fixture.PlatformAdminToken
)

// Allocation kinds that region itself charges.
const fileStorageAllocationKind = "filestorages.region.unikorn-cloud.org"

const (
	globalUserID     = fixture.GlobalUserID
	globalAdminID    = fixture.GlobalAdminID
	globalForeignID  = fixture.GlobalForeignID
	globalOutsiderID = fixture.GlobalOutsiderID
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
	grant func(st *core.Store, acl *core.ACL)
}

func mustRole(st *core.Store, id string) core.Role {
	role, ok := core.Get[core.Role](st, id)
	if !ok {
		panic("unknown fixture role " + id)
	}

	return *role
}

var (
	fixtureUser = fixturePrincipal{
		user: globalUserID, legacy: true,
		grant: func(st *core.Store, acl *core.ACL) {
			acl.GrantRole(OrganizationID, mustRole(st, UserRoleID), ProjectID, OtherProjectID)
		},
	}
	outsider  = fixturePrincipal{user: globalOutsiderID, legacy: true, grant: func(*core.Store, *core.ACL) {}}
	foreigner = fixturePrincipal{
		user: globalForeignID, legacy: true,
		grant: func(st *core.Store, acl *core.ACL) {
			acl.GrantRole(ForeignOrganizationID, mustRole(st, UserRoleID), ForeignProjectID)
		},
	}
	// serviceUser holds compute's role in the organizations the sandbox's compute
	// serves, the fixture and the empty one: every project there, made before or
	// after, as compute must reach any project its users make. (Real compute's role
	// is global; here it stays out of the foreign organization, as it always has.)
	serviceUser = fixturePrincipal{
		legacy: true, service: true,
		grant: func(st *core.Store, acl *core.ACL) {
			compute := mustRole(st, fixture.ComputeServiceRoleID)
			for _, organizationID := range []string{OrganizationID, EmptyOrganizationID} {
				acl.GrantRole(organizationID, core.Role{Organization: compute.Global})
			}
		},
	}
	administrator         = fixturePrincipal{user: globalAdminID, grant: func(*core.Store, *core.ACL) {}}
	platformAdministrator = fixturePrincipal{grant: func(st *core.Store, acl *core.ACL) {
		acl.GrantGlobal(mustRole(st, fixture.PlatformAdministratorRoleID))
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
)

// quotaKinds are the quota kinds identity knows.
var quotaKinds = []core.QuotaKind{
	{Name: "servers", DisplayName: "Servers", Description: "A server, either virtual or bare metal.", Default: 10},
	{Name: "gpus", DisplayName: "GPUs", Description: "A general purpose GPU.", Default: 40},
	{Name: "floatingips", DisplayName: "Floating IPs", Description: "A public IP address that can be attached to a server."},
	{Name: "publicips", DisplayName: "Public IPs", Description: "A public IP address.", Default: 5},
	{Name: "networks", DisplayName: "Networks", Description: "A layer 3 network.", Default: 5},
	{Name: "loadbalancers", DisplayName: "Load Balancers", Description: "Layer 4 load balancers.", Default: 5},
	{Name: "filestorage", DisplayName: "File Storage", Description: "Persistent network file storage.", Default: fileStorageQuota},
}

// fileStorageQuota is identity's default `filestorage` quota, 1Ti, in bytes.
const fileStorageQuota = 1 << 40

func fixtureProject(organizationID, id, name string) unikorn.Project {
	return unikorn.Project{
		Metadata: unikorn.OrganizationScopedMetadata{
			ReadMetadata:   provisionedMetadata(id, name),
			OrganizationID: organizationID,
		},
		Spec: unikorn.ProjectSpec{GroupIDs: []string{}},
	}
}

func fixtureImage(id, name string, spec unikorn.ImageSpec) unikorn.Image {
	return unikorn.Image{
		Metadata: unikorn.StaticMetadata{WriteMetadata: unikorn.WriteMetadata{Name: name}, ID: id, CreationTime: fixtureTime},
		Spec:     spec,
		Status:   unikorn.ImageStatus{State: unikorn.ImageReady},
	}
}

// quotaFixture is the fixture organization's quota.
func quotaFixture(st *core.Store) error {
	core.SetQuotaLimits(st, OrganizationID, map[string]int{
		"servers": 10, "gpus": 2, "floatingips": 5, "publicips": 5, "networks": 5, "loadbalancers": 5, "filestorage": fileStorageQuota,
	})

	return nil
}
