package core_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestObjectsListIdentitysObjectsInAnyState(t *testing.T) {
	h := sandboxtest.New(t)

	group := h.CreateGroup(sandboxtest.EmptyOrganizationPath, "team", unikorn.GroupSpec{RoleIDs: []string{}, ServiceAccountIDs: []string{}})
	project := h.CreateProject(sandboxtest.EmptyOrganizationPath, group.Metadata.ID)

	var account unikorn.ServiceAccount

	h.CallAs(sandbox.AdminToken, http.MethodPost, sandboxtest.EmptyOrganizationPath("/serviceaccounts"), unikorn.ServiceAccountWrite{
		Metadata: unikorn.WriteMetadata{Name: "pipeline"}, Spec: unikorn.ServiceAccountSpec{GroupIDs: []string{group.Metadata.ID}},
	}).Expect(http.StatusCreated, &account)

	made := map[string]string{}
	for _, object := range madeObjects(h) {
		assert.Equal(t, sandbox.EmptyOrganizationID, object.OrganizationID)
		made[object.Kind] = object.ID
	}

	assert.Equal(t, map[string]string{
		sandbox.ObjectProject: project.Metadata.ID, sandbox.ObjectGroup: group.Metadata.ID, sandbox.ObjectServiceAccount: account.Metadata.ID,
	}, made, "a project still provisioning is there")

	// A project being deleted is there until identity lets it go.
	h.CallAs(sandbox.AdminToken, http.MethodDelete, sandboxtest.EmptyOrganizationPath("/projects/"+project.Metadata.ID), nil).Expect(http.StatusAccepted, nil)
	assert.Len(t, madeObjects(h), 3)

	h.Clock.Advance(sandboxtest.Settle)
	assert.Len(t, madeObjects(h), 2)
}
