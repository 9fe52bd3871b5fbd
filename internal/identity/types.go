package identity

import (
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// User states.
const (
	UserActive    = unikorn.UserActive
	UserPending   = unikorn.UserPending
	UserSuspended = unikorn.UserSuspended
)

// The façade's shared look-up shapes.
type (
	Selector    = cloud.Selector
	LookupError = cloud.LookupError
)

// Record is what identity keeps of each of an organization's projects, groups, service
// accounts and users besides what is written to it.
type Record struct {
	ID             string
	OrganizationID string
	CreationTime   time.Time
	// DeletionTime is when identity began deleting it; nil while it is not.
	DeletionTime *time.Time
	// Deleting says identity is deleting it: it has a deletion time, or its controller
	// is deprovisioning it.
	Deleting bool
}

// ProjectWrite is what a user writes about a project, all of which an update replaces.
type ProjectWrite struct {
	cloud.WriteMetadata

	// GroupIDs are the groups whose project-scoped roles apply in the project.
	GroupIDs []string
}

// Project is a project as identity has it.
type Project struct {
	Record
	ProjectWrite

	ProvisioningStatus string
}

// GroupWrite is what a user writes about a group, all of which an update replaces:
// identity takes out of a group every member its update does not name.
type GroupWrite struct {
	cloud.WriteMetadata

	RoleIDs           []string
	UserIDs           []string
	ServiceAccountIDs []string
}

// Group is a group as identity has it.
type Group struct {
	Record
	GroupWrite
}

// ServiceAccountWrite is what a user writes about a service account.
type ServiceAccountWrite struct {
	cloud.WriteMetadata

	// GroupIDs are the groups the account is in: identity rewrites every group of the
	// organization to match (see Joined).
	GroupIDs []string
}

// ServiceAccount is a service account as identity has it.
type ServiceAccount struct {
	Record
	ServiceAccountWrite

	// AccessToken is the account's token, which only the answer to a create or a
	// rotation carries; empty otherwise.
	AccessToken string
	// TokenExpiry is when the account's current token expires.
	TokenExpiry time.Time
}

// UserWrite is what a user of the provider writes about a user of the organization.
// A user has no name, description or tags of its own: its subject names it.
type UserWrite struct {
	// Subject is who the user is, as the organization's identity provider names them.
	Subject string
	State   string
	// GroupIDs are the groups the user is in: identity rewrites every group of the
	// organization to match (see Joined).
	GroupIDs []string
}

// User is a user of an organization as identity has it.
type User struct {
	Record
	UserWrite

	// LastActive is when the user last signed in; nil if never.
	LastActive *time.Time
}

// Organization is an organization's settings.
type Organization struct {
	cloud.WriteMetadata

	ID string
	// Type is how its users sign in: adhoc or domain.
	Type string
	// Domain, ProviderScope and ProviderID name, for an organization with an identity
	// provider of its own, its email domain and that provider; empty when it has none.
	Domain        string
	ProviderScope string
	ProviderID    string
}

// Role is a role a group may hold.
type Role struct {
	ID          string
	Name        string
	Description string
}

// Quota is an organization's quota of one kind of resource.
type Quota struct {
	Kind  string
	Limit int
	Used  int
	Free  int
}

// recordFromWire is identity's metadata of an organization's object in the façade's terms.
func recordFromWire(in *unikorn.OrganizationScopedMetadata) Record {
	return Record{
		ID:             in.ID,
		OrganizationID: in.OrganizationID,
		CreationTime:   in.CreationTime,
		DeletionTime:   in.DeletionTime,
		Deleting:       cloud.Deleting(&in.ReadMetadata),
	}
}

func projectFromWire(in *unikorn.Project) *Project {
	return &Project{
		Record:             recordFromWire(&in.Metadata),
		ProjectWrite:       ProjectWrite{WriteMetadata: cloud.WriteMetadataOf(in.Metadata.WriteMetadata), GroupIDs: in.Spec.GroupIDs},
		ProvisioningStatus: in.Metadata.ProvisioningStatus,
	}
}

// wire is the project as identity takes it.
func (w ProjectWrite) wire() unikorn.ProjectWrite {
	return unikorn.ProjectWrite{Metadata: w.Wire(), Spec: unikorn.ProjectSpec{GroupIDs: w.GroupIDs}}
}

func groupFromWire(in *unikorn.Group) *Group {
	return &Group{
		Record: recordFromWire(&in.Metadata),
		GroupWrite: GroupWrite{
			WriteMetadata: cloud.WriteMetadataOf(in.Metadata.WriteMetadata),
			RoleIDs:       in.Spec.RoleIDs, UserIDs: in.Spec.UserIDs, ServiceAccountIDs: in.Spec.ServiceAccountIDs,
		},
	}
}

// wire is the group as identity takes it: its users by ID, never by subject.
func (w GroupWrite) wire() unikorn.GroupWrite {
	return unikorn.GroupWrite{
		Metadata: w.Wire(),
		Spec:     unikorn.GroupSpec{RoleIDs: w.RoleIDs, UserIDs: w.UserIDs, ServiceAccountIDs: w.ServiceAccountIDs},
	}
}

func serviceAccountFromWire(in *unikorn.ServiceAccount) *ServiceAccount {
	return &ServiceAccount{
		Record:              recordFromWire(&in.Metadata),
		ServiceAccountWrite: ServiceAccountWrite{WriteMetadata: cloud.WriteMetadataOf(in.Metadata.WriteMetadata), GroupIDs: in.Spec.GroupIDs},
		AccessToken:         in.Status.AccessToken,
		TokenExpiry:         in.Status.Expiry,
	}
}

// wire is the service account as identity takes it.
func (w ServiceAccountWrite) wire() unikorn.ServiceAccountWrite {
	return unikorn.ServiceAccountWrite{Metadata: w.Wire(), Spec: unikorn.ServiceAccountSpec{GroupIDs: w.GroupIDs}}
}

func userFromWire(in *unikorn.User) *User {
	return &User{
		Record:     recordFromWire(&in.Metadata),
		UserWrite:  UserWrite{Subject: in.Spec.Subject, State: in.Spec.State, GroupIDs: in.Spec.GroupIDs},
		LastActive: in.Status.LastActive,
	}
}

// wire is the user as identity takes it: with no metadata, which identity makes up.
func (w UserWrite) wire() unikorn.UserWrite {
	return unikorn.UserWrite{Spec: unikorn.UserSpec{Subject: w.Subject, State: w.State, GroupIDs: w.GroupIDs}}
}

func organizationFromWire(in *unikorn.Organization) *Organization {
	return &Organization{
		WriteMetadata: cloud.WriteMetadataOf(in.Metadata.WriteMetadata),
		ID:            in.Metadata.ID,
		Type:          in.Spec.OrganizationType,
		Domain:        in.Spec.Domain,
		ProviderScope: in.Spec.ProviderScope,
		ProviderID:    in.Spec.ProviderID,
	}
}

func roleFromWire(in *unikorn.Role) *Role {
	return &Role{ID: in.Metadata.ID, Name: in.Metadata.Name, Description: in.Metadata.Description}
}

func quotaFromWire(in *unikorn.Quota) *Quota {
	return &Quota{Kind: in.Kind, Limit: in.Quantity, Used: in.Used, Free: in.Free}
}
