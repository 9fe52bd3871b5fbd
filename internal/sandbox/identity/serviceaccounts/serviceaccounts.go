// Package serviceaccounts is identity's service accounts
// (pkg/handler/serviceaccounts): an organization's non-human principals, each with one
// valid access token, which identity answers only when it is made or rotated. Identity
// keeps an account's groups on the groups: an account's write rewrites every group of
// its organization. The family authenticates the accounts' tokens for every service.
package serviceaccounts

import (
	"crypto/rand"
	"encoding/base64"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is identity's service accounts.
var Family = core.Family{Name: "serviceaccounts", Register: register}

const (
	// ObjectKind is a service account's kind among the objects the sandbox holds.
	ObjectKind = "serviceAccount"

	rbacServiceAccounts = "identity:serviceaccounts"
)

// account is a service account and its one valid access token. Its groups are not kept
// here: identity keeps them on the groups.
type account struct {
	Metadata unikorn.OrganizationScopedMetadata `json:"metadata"`
	Expiry   time.Time                          `json:"expiry"`
	Token    string                             `json:"token"`
}

var accounts = &core.Kind[account]{
	Name: "serviceAccounts",
	Object: func(_ *core.Store, a *account) core.Object {
		return core.OrganizationObject(ObjectKind, &a.Metadata)
	},
}

func register(s *core.Server) error {
	core.Register(s, accounts)
	s.Authenticate(tokens{})

	s.Handle("GET /api/v1/organizations/{organizationID}/serviceaccounts", list)
	s.Handle("POST /api/v1/organizations/{organizationID}/serviceaccounts", create)
	s.Handle("PUT /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}", update)
	s.Handle("DELETE /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}", remove)
	s.Handle("POST /api/v1/organizations/{organizationID}/serviceaccounts/{serviceAccountID}/rotate", rotate)

	return nil
}

// tokens is the authenticator of service accounts' tokens.
type tokens struct{}

func (tokens) Plausible(token string) bool {
	return IsAccessToken(token)
}

func (tokens) Resolve(st *core.Store, token string, now time.Time) (*core.Caller, bool, error) {
	for _, a := range accounts.Records(st) {
		if a.Token == "" || a.Token != token {
			continue
		}

		if !now.Before(a.Expiry) {
			return nil, false, &core.Unauthenticated{Cause: "token expired"}
		}

		id, organizationID := a.Metadata.ID, a.Metadata.OrganizationID

		acl := core.NewACL()
		core.GrantGroups(st, acl, organizationID, core.Member{ServiceAccountID: id})
		// A service account always belongs to its organization, even in no group.
		acl.Join(organizationID)

		return &core.Caller{ACL: acl, ServiceAccountID: id, OrganizationID: organizationID, Expiry: a.Expiry}, true, nil
	}

	return nil, false, nil
}

// render is identity `serviceAccountRead`, its groups derived from the groups.
func render(st *core.Store, a *account) unikorn.ServiceAccount {
	var groups []core.Group

	for _, group := range core.All[unikorn.Group](st) {
		if group.Metadata.OrganizationID == a.Metadata.OrganizationID {
			groups = append(groups, core.RBACGroup(group))
		}
	}

	return unikorn.ServiceAccount{
		Metadata: a.Metadata,
		Spec:     unikorn.ServiceAccountSpec{GroupIDs: GroupsOf(a.Metadata.ID, groups)},
		Status:   unikorn.ServiceAccountStatus{Expiry: a.Expiry},
	}
}

// TokenLifetime is how long a service account's access token lives: identity's
// default, 90 days.
const TokenLifetime = 90 * 24 * time.Hour

// tokenPrefix marks a service account's access token, so that a bearer token can be
// told apart from the fixture users' at a glance.
const tokenPrefix = "sandbox-sa-"

// NewAccessToken draws a service account access token.
func NewAccessToken() string {
	secret := make([]byte, 24)
	_, _ = rand.Read(secret) // crypto/rand never fails on supported platforms.

	return tokenPrefix + base64.RawURLEncoding.EncodeToString(secret)
}

// IsAccessToken reports whether a bearer token has the form of a service account's.
func IsAccessToken(token string) bool {
	return len(token) > len(tokenPrefix) && token[:len(tokenPrefix)] == tokenPrefix
}

// GroupsOf are the IDs of the groups that name the service account, in the groups'
// order: identity keeps membership on the groups and derives it for the account.
func GroupsOf(serviceAccountID string, groups []core.Group) []string {
	ids := []string{}

	for _, group := range groups {
		if slices.Contains(group.ServiceAccountIDs, serviceAccountID) {
			ids = append(ids, group.ID)
		}
	}

	return ids
}

// Membership is a group's service account list after the account asked to be in the
// groups wanted: added when the group is wanted, removed when not. Group IDs wanted
// that name no group are ignored, as identity ignores them. changed says whether the
// list differs.
func Membership(serviceAccountID string, group core.Group, wanted []string) (ids []string, changed bool) {
	member := slices.Contains(group.ServiceAccountIDs, serviceAccountID)

	switch want := slices.Contains(wanted, group.ID); {
	case want && !member:
		return append(slices.Clone(group.ServiceAccountIDs), serviceAccountID), true
	case !want && member:
		return slices.DeleteFunc(slices.Clone(group.ServiceAccountIDs), func(id string) bool { return id == serviceAccountID }), true
	default:
		return group.ServiceAccountIDs, false
	}
}

// writeRequired is the required part of identity `serviceAccountWrite`.
var writeRequired = core.RequiredWith("spec", "spec.groupIDs")

// allow allows the operation to whoever holds it, and to a service
// account acting on itself (selfID, or any when empty): identity lets an account find
// its own ID and rotate its own token.
func allow(caller *core.Caller, organizationID, operation, selfID string) error {
	if caller.ServiceAccountID != "" && caller.OrganizationID == organizationID &&
		(selfID == "" || selfID == caller.ServiceAccountID) {
		return nil
	}

	return core.Forbid(caller.ACL.AllowOrganization(organizationID, rbacServiceAccounts, operation))
}

func list(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := allow(req.Caller, organizationID, core.OpRead, ""); err != nil {
		return nil, err
	}

	// Without the permission, a service account sees only itself.
	onlySelf := req.Caller.ACL.AllowOrganization(organizationID, rbacServiceAccounts, core.OpRead) != nil

	var records []*account

	for _, record := range accounts.Sorted(req.Store) {
		if record.Metadata.OrganizationID == organizationID && (!onlySelf || record.Metadata.ID == req.Caller.ServiceAccountID) {
			records = append(records, record)
		}
	}

	result := []unikorn.ServiceAccount{}
	for _, record := range records {
		result = append(result, render(req.Store, record))
	}

	return core.OK(result), nil
}

func decode(req *core.Request) (unikorn.ServiceAccountWrite, error) {
	var body unikorn.ServiceAccountWrite
	if err := core.DecodeBody(req.Request, &body, writeRequired...); err != nil {
		return body, err
	}

	return body, core.ValidateWriteMetadata(body.Metadata)
}

// joinGroups puts the account in the groups wanted and takes it out of the others.
// Wanted IDs that name no group of the organization are ignored, as identity ignores
// them: the answer's groups show what was done.
func joinGroups(st *core.Store, serviceAccountID, organizationID string, wanted []string) {
	for _, group := range core.All[unikorn.Group](st) {
		if group.Metadata.OrganizationID != organizationID {
			continue
		}

		if ids, changed := Membership(serviceAccountID, core.RBACGroup(group), wanted); changed {
			group.Spec.ServiceAccountIDs = ids
		}
	}
}

// create answers 201 with the account's access token, the only time
// identity shows it.
func create(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := core.Forbid(req.Caller.ACL.AllowOrganization(organizationID, rbacServiceAccounts, core.OpCreate)); err != nil {
		return nil, err
	}

	body, err := decode(req)
	if err != nil {
		return nil, err
	}

	metadata := core.NewReadMetadata(core.NewResourceID(), body.Metadata, req.Now)
	record := &account{
		Metadata: unikorn.OrganizationScopedMetadata{ReadMetadata: core.Settled(metadata), OrganizationID: organizationID},
		Expiry:   req.Now.Add(TokenLifetime).UTC().Truncate(time.Second),
		Token:    NewAccessToken(),
	}

	accounts.Put(req.Store, record.Metadata.ID, record)
	joinGroups(req.Store, record.Metadata.ID, organizationID, body.Spec.GroupIDs)

	created := render(req.Store, record)
	created.Status.AccessToken = record.Token

	return core.Created(created), nil
}

func find(req *core.Request, operation, selfID string) (*account, error) {
	organizationID := req.PathValue("organizationID")

	if err := allow(req.Caller, organizationID, operation, selfID); err != nil {
		return nil, err
	}

	record, ok := accounts.Get(req.Store, req.PathValue("serviceAccountID"))
	if !ok || record.Metadata.OrganizationID != organizationID {
		return nil, core.NotFound()
	}

	return record, nil
}

// update replaces metadata and groups and keeps the token.
func update(req *core.Request) (*core.Reply, error) {
	body, err := decode(req)
	if err != nil {
		return nil, err
	}

	record, err := find(req, core.OpUpdate, "-")
	if err != nil {
		return nil, err
	}

	updated := *record
	core.RewriteMetadata(&updated.Metadata.ReadMetadata, body.Metadata, req.Now)
	accounts.Put(req.Store, record.Metadata.ID, &updated)
	joinGroups(req.Store, record.Metadata.ID, record.Metadata.OrganizationID, body.Spec.GroupIDs)

	return core.OK(render(req.Store, &updated)), nil
}

// remove takes the account out of its groups, deletes it and revokes
// its token.
func remove(req *core.Request) (*core.Reply, error) {
	record, err := find(req, core.OpDelete, "-")
	if err != nil {
		return nil, err
	}

	joinGroups(req.Store, record.Metadata.ID, record.Metadata.OrganizationID, nil)
	accounts.Delete(req.Store, record.Metadata.ID)

	return core.OK(nil), nil
}

// rotate issues a new token, revokes the old one and answers the new
// one, once. An account may rotate its own token.
func rotate(req *core.Request) (*core.Reply, error) {
	record, err := find(req, core.OpUpdate, req.PathValue("serviceAccountID"))
	if err != nil {
		return nil, err
	}

	updated := *record
	updated.Token = NewAccessToken()
	updated.Expiry = req.Now.Add(TokenLifetime).UTC().Truncate(time.Second)
	accounts.Put(req.Store, record.Metadata.ID, &updated)

	rotated := render(req.Store, &updated)
	rotated.Status.AccessToken = updated.Token

	return core.OK(rotated), nil
}
