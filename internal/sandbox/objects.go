package sandbox

import (
	"cmp"
	"net/http"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Kinds of Object.
const (
	ObjectNetwork                 = "network"
	ObjectSecurityGroup           = "securityGroup"
	ObjectSSHCertificateAuthority = "sshCertificateAuthority"
	ObjectServer                  = "server"
	ObjectImage                   = "image"
	ObjectAllocation              = "allocation"
	ObjectInstance                = "instance"
	ObjectLoadBalancer            = "loadBalancer"
	ObjectFileStorage             = "fileStorage"
	ObjectProject                 = "project"
	ObjectGroup                   = "group"
	ObjectServiceAccount          = "serviceAccount"
	// ObjectUser is a user of an organization; identity keeps the global user behind
	// it when it leaves, so global users are not objects.
	ObjectUser = "user"
)

// Object is one thing the sandbox holds, as it is now rather than as a lagging read
// shows it: what a test reads to learn what a configuration left behind.
type Object struct {
	Kind           string `json:"kind"`
	ID             string `json:"id"`
	Name           string `json:"name"`
	OrganizationID string `json:"organizationId,omitempty"`
	ProjectID      string `json:"projectId,omitempty"`
	// Fixture marks what every fresh start holds, so that "nothing left behind" is
	// every object that is not one.
	Fixture bool `json:"fixture"`
}

// Objects returns everything users can make that exists now, fixtures included,
// sorted by kind and ID. Objects being deleted are listed until they are gone. A kind
// the sandbox learns to serve joins here, or a leak of it goes unseen.
func (s *Sandbox) Objects() []Object {
	// Compute takes the sandbox's lock inside its own, so it is asked first.
	var objects []Object
	if s.compute != nil {
		for _, in := range s.compute.Instances() {
			objects = append(objects, projectObject(ObjectInstance, &in.Metadata))
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()

	for _, record := range s.world.Networks {
		objects = append(objects, projectObject(ObjectNetwork, &record.Network.Metadata))
	}

	for _, record := range s.world.SecurityGroups {
		objects = append(objects, projectObject(ObjectSecurityGroup, &record.SecurityGroup.Metadata))
	}

	for _, ca := range s.world.SSHCertificateAuthorities {
		objects = append(objects, projectObject(ObjectSSHCertificateAuthority, &ca.Metadata))
	}

	for _, record := range s.world.Servers {
		objects = append(objects, projectObject(ObjectServer, &record.Server.Metadata))
	}

	for _, record := range s.world.LoadBalancers {
		objects = append(objects, projectObject(ObjectLoadBalancer, &record.LoadBalancer.Metadata))
	}

	for _, record := range s.world.FileStorage {
		objects = append(objects, projectObject(ObjectFileStorage, &record.Metadata))
	}

	for _, allocation := range s.world.Allocations {
		objects = append(objects, projectObject(ObjectAllocation, &allocation.Metadata))
	}

	for _, record := range s.world.Projects {
		objects = append(objects, organizationObject(ObjectProject, &record.Project.Metadata))
	}

	for _, group := range s.world.Groups {
		objects = append(objects, organizationObject(ObjectGroup, &group.Metadata))
	}

	for _, record := range s.world.ServiceAccounts {
		objects = append(objects, organizationObject(ObjectServiceAccount, &record.Metadata))
	}

	for _, record := range s.world.OrganizationUsers {
		object := organizationObject(ObjectUser, &record.Metadata)
		// Named by subject: an organization user's own name is identity's "undefined".
		if user, ok := s.world.Users[record.UserID]; ok {
			object.Name = user.Subject
		}

		objects = append(objects, object)
	}

	for _, record := range s.world.Images {
		metadata := &record.Image.Metadata
		objects = append(objects, Object{
			Kind: ObjectImage, ID: metadata.ID, Name: metadata.Name, OrganizationID: record.OrganizationID,
			Fixture: metadata.CreationTime.Equal(fixtureTime),
		})
	}

	slices.SortFunc(objects, func(a, b Object) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.ID, b.ID))
	})

	return objects
}

// projectObject describes a project's object; fixtures are the objects made at the
// fixtures' creation time.
func projectObject(kind string, metadata *unikorn.ProjectScopedMetadata) Object {
	return Object{
		Kind:           kind,
		ID:             metadata.ID,
		Name:           metadata.Name,
		OrganizationID: metadata.OrganizationID,
		ProjectID:      metadata.ProjectID,
		Fixture:        metadata.CreationTime.Equal(fixtureTime),
	}
}

// organizationObject describes an organization's object, such as identity's.
func organizationObject(kind string, metadata *unikorn.OrganizationScopedMetadata) Object {
	return Object{
		Kind:           kind,
		ID:             metadata.ID,
		Name:           metadata.Name,
		OrganizationID: metadata.OrganizationID,
		Fixture:        metadata.CreationTime.Equal(fixtureTime),
	}
}

// registerObjectRoutes serves Objects; "?fixtures=false" leaves the fixtures out, so
// that a sandbox holding nothing a test made answers an empty list.
func (s *Sandbox) registerObjectRoutes() {
	s.handleControl("GET /sandbox/v1/objects", func(r *http.Request) (*reply, error) {
		var withFixtures bool

		switch r.URL.Query().Get("fixtures") {
		case "", "true":
			withFixtures = true
		case "false":
		default:
			return nil, errBadRequest("fixtures is %q: use true or false", r.URL.Query().Get("fixtures"))
		}

		objects := []Object{}

		for _, object := range s.Objects() {
			if withFixtures || !object.Fixture {
				objects = append(objects, object)
			}
		}

		return replyOK(objects), nil
	})
}
