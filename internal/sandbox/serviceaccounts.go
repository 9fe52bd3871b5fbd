package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// serviceAccountRecord is a service account and its one valid access token. Its groups
// are not kept here: identity keeps them on the groups.
type serviceAccountRecord struct {
	Metadata unikorn.OrganizationScopedMetadata `json:"metadata"`
	Expiry   time.Time                          `json:"expiry"`
	Token    string                             `json:"token"`
}

// serviceAccountWriteRequired is the required part of identity `serviceAccountWrite`.
var serviceAccountWriteRequired = requiredWith("spec", "spec.groupIDs")

// render is identity `serviceAccountRead`, its groups derived from the groups.
func (w *world) renderServiceAccount(record *serviceAccountRecord) unikorn.ServiceAccount {
	var groups []core.Group

	for _, group := range w.groupsByName(record.Metadata.OrganizationID) {
		groups = append(groups, rbacGroup(group))
	}

	return unikorn.ServiceAccount{
		Metadata: record.Metadata,
		Spec:     unikorn.ServiceAccountSpec{GroupIDs: identity.GroupsOf(record.Metadata.ID, groups)},
		Status:   unikorn.ServiceAccountStatus{Expiry: record.Expiry},
	}
}

// allowServiceAccounts allows the operation to whoever holds it, and to a service
// account acting on itself (selfID, or any when empty): identity lets an account find
// its own ID and rotate its own token.
func allowServiceAccounts(caller *principal, organizationID, operation, selfID string) error {
	if caller.ServiceAccountID != "" && caller.OrganizationID == organizationID &&
		(selfID == "" || selfID == caller.ServiceAccountID) {
		return nil
	}

	return forbidden(caller.ACL.AllowOrganization(organizationID, rbacServiceAccount, operation))
}

func (s *Sandbox) listServiceAccounts(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := allowServiceAccounts(req.Caller, organizationID, opRead, ""); err != nil {
		return nil, err
	}

	// Without the permission, a service account sees only itself.
	onlySelf := req.Caller.ACL.AllowOrganization(organizationID, rbacServiceAccount, opRead) != nil

	var records []*serviceAccountRecord

	for _, record := range byID(s.world.ServiceAccounts) {
		if record.Metadata.OrganizationID == organizationID && (!onlySelf || record.Metadata.ID == req.Caller.ServiceAccountID) {
			records = append(records, record)
		}
	}

	result := []unikorn.ServiceAccount{}
	for _, record := range records {
		result = append(result, s.world.renderServiceAccount(record))
	}

	return replyOK(result), nil
}

func decodeServiceAccount(req *core.Request) (unikorn.ServiceAccountWrite, error) {
	var body unikorn.ServiceAccountWrite
	if err := decodeBody(req.Request, &body, serviceAccountWriteRequired...); err != nil {
		return body, err
	}

	return body, validateWriteMetadata(body.Metadata)
}

// joinGroups puts the account in the groups wanted and takes it out of the others.
// Wanted IDs that name no group of the organization are ignored, as identity
// ignores them: the answer's groups show what was done.
func (w *world) joinGroups(serviceAccountID, organizationID string, wanted []string) {
	for _, group := range w.groupsByName(organizationID) {
		if ids, changed := identity.Membership(serviceAccountID, rbacGroup(group), wanted); changed {
			updated := *group
			updated.Spec.ServiceAccountIDs = ids
			w.Groups[group.Metadata.ID] = &updated
		}
	}
}

// createServiceAccount answers 201 with the account's access token, the only time
// identity shows it.
func (s *Sandbox) createServiceAccount(req *core.Request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	if err := forbidden(req.Caller.ACL.AllowOrganization(organizationID, rbacServiceAccount, opCreate)); err != nil {
		return nil, err
	}

	body, err := decodeServiceAccount(req)
	if err != nil {
		return nil, err
	}

	metadata := newReadMetadata(newResourceID(), body.Metadata, req.Now)
	record := &serviceAccountRecord{
		Metadata: unikorn.OrganizationScopedMetadata{ReadMetadata: groupMetadata(metadata), OrganizationID: organizationID},
		Expiry:   req.Now.Add(identity.TokenLifetime).UTC().Truncate(time.Second),
		Token:    identity.NewAccessToken(),
	}

	s.world.ServiceAccounts[record.Metadata.ID] = record
	s.world.joinGroups(record.Metadata.ID, organizationID, body.Spec.GroupIDs)

	created := s.world.renderServiceAccount(record)
	created.Status.AccessToken = record.Token

	return replyCreated(created), nil
}

func (s *Sandbox) findServiceAccount(req *core.Request, operation, selfID string) (*serviceAccountRecord, error) {
	organizationID := req.PathValue("organizationID")

	if err := allowServiceAccounts(req.Caller, organizationID, operation, selfID); err != nil {
		return nil, err
	}

	record, ok := s.world.ServiceAccounts[req.PathValue("serviceAccountID")]
	if !ok || record.Metadata.OrganizationID != organizationID {
		return nil, errNotFound()
	}

	return record, nil
}

// updateServiceAccount replaces metadata and groups and keeps the token.
func (s *Sandbox) updateServiceAccount(req *core.Request) (*core.Reply, error) {
	body, err := decodeServiceAccount(req)
	if err != nil {
		return nil, err
	}

	record, err := s.findServiceAccount(req, opUpdate, "-")
	if err != nil {
		return nil, err
	}

	updated := *record
	rewriteMetadata(&updated.Metadata.ReadMetadata, body.Metadata, req.Now)
	s.world.ServiceAccounts[record.Metadata.ID] = &updated
	s.world.joinGroups(record.Metadata.ID, record.Metadata.OrganizationID, body.Spec.GroupIDs)

	return replyOK(s.world.renderServiceAccount(&updated)), nil
}

// deleteServiceAccount takes the account out of its groups, deletes it and revokes
// its token.
func (s *Sandbox) deleteServiceAccount(req *core.Request) (*core.Reply, error) {
	record, err := s.findServiceAccount(req, opDelete, "-")
	if err != nil {
		return nil, err
	}

	s.world.joinGroups(record.Metadata.ID, record.Metadata.OrganizationID, nil)
	delete(s.world.ServiceAccounts, record.Metadata.ID)

	return replyOK(nil), nil
}

// rotateServiceAccount issues a new token, revokes the old one and answers the new
// one, once. An account may rotate its own token.
func (s *Sandbox) rotateServiceAccount(req *core.Request) (*core.Reply, error) {
	record, err := s.findServiceAccount(req, opUpdate, req.PathValue("serviceAccountID"))
	if err != nil {
		return nil, err
	}

	updated := *record
	updated.Token = identity.NewAccessToken()
	updated.Expiry = req.Now.Add(identity.TokenLifetime).UTC().Truncate(time.Second)
	s.world.ServiceAccounts[record.Metadata.ID] = &updated

	rotated := s.world.renderServiceAccount(&updated)
	rotated.Status.AccessToken = updated.Token

	return replyOK(rotated), nil
}
