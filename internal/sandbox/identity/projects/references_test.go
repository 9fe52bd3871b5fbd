package projects_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// referencePath is the path of a reference on a project of the empty organization, as
// identity's client escapes it: region's references hold a slash.
func referencePath(projectID, reference string) string {
	return sandboxtest.EmptyOrganizationPath("/projects/" + projectID + "/references/" + url.PathEscape(reference))
}

func TestRegionsReferencesHoldAProjectsDeletion(t *testing.T) {
	h := sandboxtest.New(t)
	group := h.CreateGroup(sandboxtest.EmptyOrganizationPath, "team", unikorn.GroupSpec{RoleIDs: []string{sandbox.UserRoleID}, ServiceAccountIDs: []string{}})
	project := h.CreateProject(sandboxtest.EmptyOrganizationPath, group.Metadata.ID)
	h.Clock.Advance(sandboxtest.Settle)

	path := referencePath(project.Metadata.ID, "region.unikorn-cloud.org/network-n1")

	// A user's token, even an administrator's, is not region's.
	h.CallAs(sandbox.AdminToken, http.MethodPut, path, nil).ExpectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.CallAsRegion(http.MethodPut, path, nil).Expect(http.StatusCreated, nil)
	h.CallAsRegion(http.MethodPut, path, nil).Expect(http.StatusCreated, nil)

	h.CallAs(sandbox.AdminToken, http.MethodDelete, sandboxtest.EmptyOrganizationPath("/projects/"+project.Metadata.ID), nil).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(10 * sandboxtest.Settle)
	h.ProjectAs(sandbox.AdminToken, sandbox.EmptyOrganizationID, project.Metadata.ID).Expect(http.StatusOK, nil)

	// A project being deleted takes no new reference.
	h.CallAsRegion(http.MethodPut, referencePath(project.Metadata.ID, "region.unikorn-cloud.org/network-n2"), nil).
		ExpectError(http.StatusBadRequest, unikorn.ErrorInvalidRequest)

	// The last reference released, the project goes; a release once it is gone finds
	// no project, which region takes as done.
	h.CallAsRegion(http.MethodDelete, path, nil).Expect(http.StatusNoContent, nil)
	h.ProjectAs(sandbox.AdminToken, sandbox.EmptyOrganizationID, project.Metadata.ID).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.CallAsRegion(http.MethodDelete, path, nil).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
}

func TestARepeatedReleaseOfAReferenceIsNoContent(t *testing.T) {
	h := sandboxtest.New(t)
	project := h.CreateProject(sandboxtest.EmptyOrganizationPath)
	h.Clock.Advance(sandboxtest.Settle)

	path := referencePath(project.Metadata.ID, "region.unikorn-cloud.org/network-n1")

	h.CallAsRegion(http.MethodPut, path, nil).Expect(http.StatusCreated, nil)
	h.CallAsRegion(http.MethodDelete, path, nil).Expect(http.StatusNoContent, nil)
	h.CallAsRegion(http.MethodDelete, path, nil).Expect(http.StatusNoContent, nil)

	// Released, it holds nothing: the project goes once deprovisioned.
	h.CallAs(sandbox.AdminToken, http.MethodDelete, sandboxtest.EmptyOrganizationPath("/projects/"+project.Metadata.ID), nil).Expect(http.StatusAccepted, nil)
	h.Clock.Advance(sandboxtest.Settle)
	h.ProjectAs(sandbox.AdminToken, sandbox.EmptyOrganizationID, project.Metadata.ID).ExpectError(http.StatusNotFound, unikorn.ErrorNotFound)
}
