// Package identity is the façade's family for identity's organization-scoped objects:
// projects (asynchronous: provisioned by a controller, their deletion held while other
// services still reference them), groups and service accounts (synchronous; a service
// account's token is answered once), and the roles and quotas a configuration reads.
package identity

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Objects manages identity's projects, groups and service accounts, and reads roles
// and quotas.
type Objects interface {
	ReadProject(ctx context.Context, organizationID, id string) (*Project, error)
	CreateProject(ctx context.Context, organizationID string, write ProjectWrite) (*Project, error)
	UpdateProject(ctx context.Context, organizationID, id string, write ProjectWrite) (*Project, error)
	DeleteProject(ctx context.Context, organizationID, id string, created time.Time) error
	ListProjects(ctx context.Context, organizationID string) ([]Project, error)
	Project(ctx context.Context, selector Selector) (*Project, error)

	ReadGroup(ctx context.Context, organizationID, id string) (*Group, error)
	CreateGroup(ctx context.Context, organizationID string, write GroupWrite) (*Group, error)
	UpdateGroup(ctx context.Context, organizationID, id string, write GroupWrite) (*Group, error)
	DeleteGroup(ctx context.Context, organizationID, id string, created time.Time) error
	ListGroups(ctx context.Context, organizationID string) ([]Group, error)
	Group(ctx context.Context, selector Selector) (*Group, error)

	ReadUser(ctx context.Context, organizationID, id string) (*User, error)
	CreateUser(ctx context.Context, organizationID string, write UserWrite) (*User, error)
	UpdateUser(ctx context.Context, organizationID, id string, write UserWrite) (*User, error)
	DeleteUser(ctx context.Context, organizationID, id string, created time.Time) error
	ListUsers(ctx context.Context, organizationID string) ([]User, error)
	User(ctx context.Context, selector Selector) (*User, error)

	Organization(ctx context.Context, id string) (*Organization, error)

	ReadServiceAccount(ctx context.Context, organizationID, id string) (*ServiceAccount, error)
	CreateServiceAccount(ctx context.Context, organizationID string, write ServiceAccountWrite) (*ServiceAccount, error)
	UpdateServiceAccount(ctx context.Context, organizationID, id string, write ServiceAccountWrite) (*ServiceAccount, error)
	DeleteServiceAccount(ctx context.Context, organizationID, id string, created time.Time) error
	RotateServiceAccount(ctx context.Context, organizationID, id string) (*ServiceAccount, error)
	ListServiceAccounts(ctx context.Context, organizationID string) ([]ServiceAccount, error)

	Roles(ctx context.Context, organizationID string) ([]Role, error)
	Quotas(ctx context.Context, organizationID string) ([]Quota, error)
}

var _ Objects = (*Service)(nil)

// Service is the identity family over a session shared with the façade's others.
type Service struct {
	session *cloud.Session
	client  *unikorn.Client
}

// NewService returns the identity façade over session.
func NewService(session *cloud.Session) *Service {
	return &Service{session: session, client: session.Client()}
}

// ProjectCreationError means identity refused to create a project because the
// token's groups hold no organization-scoped role that may.
type ProjectCreationError struct {
	OrganizationID string
	Err            error
}

func (e *ProjectCreationError) Error() string {
	return fmt.Sprintf("these credentials may not create projects in organization %s: that needs the permission "+
		"`identity:projects` `create` at organization scope, which the organization administrator role "+
		"(`administrator`) grants, and none of the token's groups holds it (%v)", e.OrganizationID, e.Err)
}

func (e *ProjectCreationError) Unwrap() error { return e.Err }

// ProjectHeldError means a deleted project was still deprovisioning when the delete's
// time ran out: identity holds a project's deletion while other services still
// reference it.
type ProjectHeldError struct {
	OrganizationID string
	ID             string
	Name           string
	// Since is when identity began deleting it.
	Since *time.Time
	// Holders are what the provider could still see in the project, and the lists it
	// could not look in; identity itself does not say what holds it.
	Holders cloud.Holders
	Err     error
}

func (e *ProjectHeldError) Error() string {
	var b strings.Builder

	fmt.Fprintf(&b, "project %s (%q) is still being deleted", e.ID, e.Name)

	if e.Since != nil {
		fmt.Fprintf(&b, " (since %s)", e.Since.UTC().Format(time.RFC3339))
	}

	b.WriteString(": identity keeps a project until every service that references it (region's networks, " +
		"security groups, SSH certificate authorities, servers, load balancers and file storage, compute's instances, " +
		"Kubernetes clusters) has released it, and does not say which do. ")

	if names := e.Holders.Names(); names != "" {
		fmt.Fprintf(&b, "These are still in it: %s", names)
	} else {
		b.WriteString("These credentials see none of region's or compute's objects in it, so what holds it may belong " +
			"to another service or be hidden from this token")
	}

	if partial := e.Holders.Partial(); partial != "" {
		fmt.Fprintf(&b, "; there may be more: %s", partial)
	}

	fmt.Fprintf(&b, ". The others are found with `GET /api/v2/networks?projectID=%s` (and the other kinds) on region, "+
		"and `GET /api/v2/instances?projectID=%s` on compute. The deletion already asked for goes on by itself (%v)",
		e.ID, e.ID, e.Err)

	return b.String()
}

func (e *ProjectHeldError) Unwrap() error { return e.Err }

func (s *Service) projects(organizationID string) cloud.Object[unikorn.Project] {
	return cloud.Object[unikorn.Project]{
		Kind: "project",
		Get: func(ctx context.Context, id string) (*unikorn.Project, error) {
			return s.client.GetProject(ctx, organizationID, id)
		},
		Del: func(ctx context.Context, id string) error {
			return s.client.DeleteProject(ctx, organizationID, id)
		},
		Metadata: func(project *unikorn.Project) *unikorn.ReadMetadata { return &project.Metadata.ReadMetadata },
	}
}

// ReadProject returns the project, or nil when identity definitely has none: a 404
// is believed only once the read lag has passed, since a project made moments ago
// may not be in identity's cache yet.
func (s *Service) ReadProject(ctx context.Context, organizationID, id string) (*Project, error) {
	return cloud.One(projectFromWire)(s.projects(organizationID).Read(ctx, s.session, id))
}

// ListProjects lists the organization's projects the token may read.
func (s *Service) ListProjects(ctx context.Context, organizationID string) ([]Project, error) {
	return cloud.All(projectFromWire)(s.client.ListProjects(ctx, organizationID))
}

// CreateProject creates a project, sent once, and waits until identity has
// provisioned it; a create whose answer was lost is looked for and adopted.
func (s *Service) CreateProject(ctx context.Context, organizationID string, write ProjectWrite) (*Project, error) {
	list := func(ctx context.Context) ([]unikorn.Project, error) {
		return s.client.ListProjects(ctx, organizationID)
	}
	projects := s.projects(organizationID)

	project, err := projects.Post(ctx, s.session, write.Name, list, func(ctx context.Context) (*unikorn.Project, error) {
		project, err := s.client.CreateProject(ctx, organizationID, write.wire())
		if cloud.Classify(err).Class == cloud.ClassRBAC {
			return nil, &ProjectCreationError{OrganizationID: organizationID, Err: err}
		}

		return project, err
	})
	if err != nil {
		return nil, err
	}

	project, err = projects.WaitProvisionedAfter(ctx, s.session, project)

	return cloud.One(projectFromWire)(project, err)
}

// UpdateProject replaces a project's metadata and groups. Identity patches under an
// optimistic lock and answers with no body, so the update is sent until identity
// takes it (Session.SendUpdate), and is done when a read shows it, provisioned.
func (s *Service) UpdateProject(ctx context.Context, organizationID, id string, write ProjectWrite) (*Project, error) {
	if err := s.session.SendUpdate(ctx, "project "+id, func(ctx context.Context) error {
		return s.client.UpdateProject(ctx, organizationID, id, write.wire())
	}); err != nil {
		return nil, err
	}

	project, err := s.projects(organizationID).WaitUntil(ctx, s.session, id, "updated", func(project *unikorn.Project) (bool, error) {
		return projectShows(projectFromWire(project), write), nil
	})

	return cloud.One(projectFromWire)(project, err)
}

func projectShows(project *Project, write ProjectWrite) bool {
	return sameMetadata(project.WriteMetadata, write.WriteMetadata) && sameSet(project.GroupIDs, write.GroupIDs)
}

// sameMetadata says whether what identity shows of an object's metadata is what was written.
func sameMetadata(shown, written cloud.WriteMetadata) bool {
	return shown.Name == written.Name && shown.Description == written.Description && sameTags(shown.Tags, written.Tags)
}

// DeleteProject deletes a project and waits until identity answers a definite 404.
// A project that other services still reference stays deprovisioning; when the
// delete's time runs out on that, the error says so and names what the token can
// still see in the project.
func (s *Service) DeleteProject(ctx context.Context, organizationID, id string, created time.Time) error {
	err := s.projects(organizationID).Delete(ctx, s.session, id, created)
	if err == nil || !errors.As(err, new(*cloud.WaitError)) {
		return err
	}

	// The caller's context has ended; the look that names the holders gets a moment
	// of its own.
	look, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()

	project, readErr := s.client.GetProject(look, organizationID, id)
	if readErr != nil || project.Metadata.DeletionTime == nil {
		return err
	}

	return &ProjectHeldError{
		OrganizationID: organizationID, ID: id, Name: project.Metadata.Name,
		Since: project.Metadata.DeletionTime, Holders: s.holders(look, organizationID, id), Err: err,
	}
}

// holders are what the token can see of region's and compute's objects in the
// project, the usual holders of its deletion, and the lists it could not look in.
func (s *Service) holders(ctx context.Context, organizationID, projectID string) cloud.Holders {
	organizations, projects := []string{organizationID}, []string{projectID}
	query := unikorn.ServerQuery{OrganizationIDs: organizations, ProjectIDs: projects}

	return cloud.FindHolders(ctx, []cloud.HolderSearch{
		everything("networks", "network", func(ctx context.Context) ([]unikorn.Network, error) {
			return s.client.ListNetworks(ctx, unikorn.NetworkQuery{OrganizationIDs: organizations, ProjectIDs: projects})
		}, func(n *unikorn.Network) *unikorn.ReadMetadata { return &n.Metadata.ReadMetadata }),
		everything("security groups", "security group", func(ctx context.Context) ([]unikorn.SecurityGroup, error) {
			return s.client.ListSecurityGroups(ctx, unikorn.SecurityGroupQuery{OrganizationIDs: organizations, ProjectIDs: projects})
		}, func(g *unikorn.SecurityGroup) *unikorn.ReadMetadata { return &g.Metadata.ReadMetadata }),
		everything("SSH certificate authorities", "SSH certificate authority", func(ctx context.Context) ([]unikorn.SSHCertificateAuthority, error) {
			return s.client.ListSSHCertificateAuthorities(ctx, unikorn.SSHCertificateAuthorityQuery{OrganizationIDs: organizations, ProjectIDs: projects})
		}, func(a *unikorn.SSHCertificateAuthority) *unikorn.ReadMetadata { return &a.Metadata.ReadMetadata }),
		everything("load balancers", "load balancer", func(ctx context.Context) ([]unikorn.LoadBalancer, error) {
			return s.client.ListLoadBalancers(ctx, unikorn.LoadBalancerQuery{OrganizationIDs: organizations, ProjectIDs: projects})
		}, func(lb *unikorn.LoadBalancer) *unikorn.ReadMetadata { return &lb.Metadata.ReadMetadata }),
		everything("file storage", "file storage", func(ctx context.Context) ([]unikorn.FileStorage, error) {
			return s.client.ListFileStorage(ctx, unikorn.FileStorageQuery{OrganizationIDs: organizations, ProjectIDs: projects})
		}, func(fs *unikorn.FileStorage) *unikorn.ReadMetadata { return &fs.Metadata.ReadMetadata }),
		everything("compute's instances", "compute instance", func(ctx context.Context) ([]unikorn.Instance, error) {
			return s.client.ListInstances(ctx, unikorn.InstanceQuery(query))
		}, func(i *unikorn.Instance) *unikorn.ReadMetadata { return &i.Metadata.ReadMetadata }),
	})
}

// everything is the search of a list whose every object holds a project: whatever a
// service keeps in the project references it.
func everything[T any](among, kind string, list func(context.Context) ([]T, error), metadata func(*T) *unikorn.ReadMetadata) cloud.HolderSearch {
	return cloud.Search(among, list, func(object *T) (cloud.Holder, bool) { return cloud.HolderOf(kind, metadata(object)), true })
}

// Project finds one project by ID or by name in the selector's organization.
func (s *Service) Project(ctx context.Context, selector Selector) (*Project, error) {
	project, err := s.projects(selector.OrganizationID).Lookup(ctx, s.session, selector,
		func(ctx context.Context) ([]unikorn.Project, error) {
			return s.client.ListProjects(ctx, selector.OrganizationID)
		})

	return cloud.One(projectFromWire)(project, err)
}

// Roles lists the roles the organization's groups may hold.
func (s *Service) Roles(ctx context.Context, organizationID string) ([]Role, error) {
	return cloud.All(roleFromWire)(s.client.ListRoles(ctx, organizationID))
}

// Quotas returns the organization's quotas: limit, used and free per kind.
func (s *Service) Quotas(ctx context.Context, organizationID string) ([]Quota, error) {
	quotas, err := s.client.GetQuotas(ctx, organizationID)
	if err != nil {
		return nil, err
	}

	return cloud.All(quotaFromWire)(quotas.Quotas, nil)
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)

	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

func sameTags(a, b cloud.Tags) bool {
	if len(a) != len(b) {
		return false
	}

	for _, tag := range b {
		if value, ok := a.Get(tag.Name); !ok || value != tag.Value {
			return false
		}
	}

	return true
}

// notFound is the 404 of a read that identity answers by list: it has none by ID.
func notFound(path string) error {
	return unikorn.Missing(path, "not in the list")
}
