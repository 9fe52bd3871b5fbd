package users

import (
	"net/mail"
	"slices"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// writeRequired is the required part of identity `userWrite`.
var writeRequired = []string{"spec", "spec.subject", "spec.state", "spec.groupIDs"}

func decode(req *core.Request) (unikorn.UserWrite, error) {
	var body unikorn.UserWrite
	if err := core.DecodeBody(req.Request, &body, writeRequired...); err != nil {
		return body, err
	}

	switch body.Spec.State {
	case unikorn.UserActive, unikorn.UserPending, unikorn.UserSuspended:
	default:
		return body, core.BadRequest("request body has an error: doesn't match schema: Error at \"/spec/state\": value is not one of the allowed values [\"active\",\"pending\",\"suspended\"]")
	}

	return body, nil
}

func list(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := allow(req, core.OpRead); err != nil {
		return nil, err
	}

	result := []unikorn.User{}

	for _, m := range members.Sorted(req.Store) {
		if m.Metadata.OrganizationID != organizationID {
			continue
		}

		// Identity's convertList fails the whole list with a consistency error when
		// its cache has an organization user but not yet the global user behind it,
		// as just after a create: never a user without its subject.
		if _, ok := globalUsers.Get(req.Store, m.UserID); !ok {
			return nil, core.ServerError()
		}

		result = append(result, *render(req.Store, m))
	}

	// As identity's convertList: by subject.
	slices.SortStableFunc(result, func(a, b unikorn.User) int { return strings.Compare(a.Spec.Subject, b.Spec.Subject) })

	return core.OK(result), nil
}

// create adds a user to the organization by subject, which must be an email address:
// identity leaves other subjects to its command line tool. Creating a subject the
// organization has keeps its state and only rewrites its groups.
func create(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := allow(req, core.OpCreate); err != nil {
		return nil, err
	}

	body, err := decode(req)
	if err != nil {
		return nil, err
	}

	if _, err := mail.ParseAddress(body.Spec.Subject); err != nil {
		return nil, core.BadRequest("subject address invalid")
	}

	var tags unikorn.Tags
	if body.Metadata != nil {
		tags = body.Metadata.Tags
	}

	m := add(req.Store, organizationID, core.NewResourceID(), body.Spec.Subject, body.Spec.State, tags, req.Now)
	joinGroups(req.Store, m, body.Spec.GroupIDs)

	return core.Created(render(req.Store, m)), nil
}

func allow(req *core.Request, operation string) error {
	return core.Forbid(req.Caller.ACL.AllowOrganization(req.PathValue("organizationID"), rbacUsers, operation))
}

// find finds the user of the organization in the path.
func find(req *core.Request) (*member, error) {
	m, ok := members.Get(req.Store, req.PathValue("userID"))
	if !ok || m.Metadata.OrganizationID != req.PathValue("organizationID") {
		return nil, core.NotFound()
	}

	return m, nil
}

// update sets the organization user's state and rewrites its groups; the subject is
// the global user's and does not change. As identity, the body is read before the user
// is looked up.
func update(req *core.Request) (*core.Reply, error) {
	if err := allow(req, core.OpUpdate); err != nil {
		return nil, err
	}

	body, err := decode(req)
	if err != nil {
		return nil, err
	}

	m, err := find(req)
	if err != nil {
		return nil, err
	}

	updated := *m
	core.RewriteMetadata(&updated.Metadata.ReadMetadata, unikorn.WriteMetadata{Name: undefinedName}, req.Now)
	updated.State = body.Spec.State
	members.Put(req.Store, m.Metadata.ID, &updated)
	joinGroups(req.Store, &updated, body.Spec.GroupIDs)

	return core.OK(render(req.Store, &updated)), nil
}

// remove takes the user out of the organization's groups and the organization:
// whatever its token could do there, it can no longer. The global user remains.
func remove(req *core.Request) (*core.Reply, error) {
	if err := allow(req, core.OpDelete); err != nil {
		return nil, err
	}

	m, err := find(req)
	if err != nil {
		return nil, err
	}

	joinGroups(req.Store, m, nil)
	members.Delete(req.Store, m.Metadata.ID)

	return core.OK(nil), nil
}
