package sandbox

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// callAsRegion sends a request as region calls identity on its own account: no
// Authorization header, the principal it acts for in X-Principal.
func (h *harness) callAsRegion(method, path string) *response {
	h.t.Helper()

	req, err := http.NewRequest(method, h.url+path, nil)
	require.NoError(h.t, err)

	req.Header.Set(principalHeader, base64.RawURLEncoding.EncodeToString([]byte(`{"organizationId":"`+OrganizationID+`"}`)))

	resp, err := http.DefaultClient.Do(req)
	require.NoError(h.t, err)
	resp.Body.Close()

	return &response{t: h.t, status: resp.StatusCode, header: resp.Header}
}

func TestRegionsReferencesHoldAProjectsDeletion(t *testing.T) {
	h := newHarness(t)
	group := h.createGroup(emptyOrganizationPath, "team", unikorn.GroupSpec{RoleIDs: []string{UserRoleID}, ServiceAccountIDs: []string{}})
	project := h.createProject(emptyOrganizationPath, group.Metadata.ID)
	h.clock.Advance(settle)

	// As identity's client escapes it: the reference holds a slash.
	reference := "region.unikorn-cloud.org/network-n1"
	path := emptyOrganizationPath("/projects/" + project.Metadata.ID + "/references/" + url.PathEscape(reference))

	// A user's token, even an administrator's, is not region's.
	h.callAs(AdminToken, http.MethodPut, path, nil).expectError(http.StatusForbidden, unikorn.ErrorForbidden)

	h.callAsRegion(http.MethodPut, path).expect(http.StatusCreated, nil)
	h.callAsRegion(http.MethodPut, path).expect(http.StatusCreated, nil)
	assert.Equal(t, []string{"reference " + reference}, h.sb.ProjectReferences(project.Metadata.ID))

	h.callAs(AdminToken, http.MethodDelete, emptyOrganizationPath("/projects/"+project.Metadata.ID), nil).expect(http.StatusAccepted, nil)
	h.clock.Advance(10 * settle)
	h.projectAs(AdminToken, EmptyOrganizationID, project.Metadata.ID).expect(http.StatusOK, nil)

	// A project being deleted takes no new reference.
	other := emptyOrganizationPath("/projects/" + project.Metadata.ID + "/references/" + url.PathEscape("region.unikorn-cloud.org/network-n2"))
	h.callAsRegion(http.MethodPut, other).expect(http.StatusBadRequest, nil)

	// The last reference released, the project goes; region takes the 404 of a
	// repeated release as done.
	h.callAsRegion(http.MethodDelete, path).expect(http.StatusNoContent, nil)
	h.projectAs(AdminToken, EmptyOrganizationID, project.Metadata.ID).expectError(http.StatusNotFound, unikorn.ErrorNotFound)
	h.callAsRegion(http.MethodDelete, path).expect(http.StatusNotFound, nil)
}

func TestARepeatedReleaseOfAReferenceIsNoContent(t *testing.T) {
	h := newHarness(t)
	path := "/api/v1/organizations/" + OrganizationID + "/projects/" + ProjectID + "/references/" + url.PathEscape("region.unikorn-cloud.org/network-n1")

	h.callAsRegion(http.MethodPut, path).expect(http.StatusCreated, nil)
	h.callAsRegion(http.MethodDelete, path).expect(http.StatusNoContent, nil)
	h.callAsRegion(http.MethodDelete, path).expect(http.StatusNoContent, nil)
	assert.NotContains(t, h.sb.ProjectReferences(ProjectID), "reference region.unikorn-cloud.org/network-n1")
}

func TestRegionsSystemAccountMayOnlyWhatItsRoleGrants(t *testing.T) {
	h := newHarness(t)
	projectPath := "/api/v1/organizations/" + OrganizationID + "/projects/" + ProjectID

	h.callAsRegion(http.MethodGet, projectPath).expect(http.StatusOK, nil)
	h.callAsRegion(http.MethodDelete, projectPath).expect(http.StatusForbidden, nil)
	h.callAsRegion(http.MethodGet, "/api/v1/organizations/"+OrganizationID+"/quotas").expect(http.StatusForbidden, nil)

	// Without X-Principal there is no one to be: 401, as without a token.
	h.callAs("", http.MethodGet, projectPath, nil).expectError(http.StatusUnauthorized, unikorn.ErrorAccessDenied)
}
