package roles_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/sandboxtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func TestRolesListWhatTheCallerCouldGrant(t *testing.T) {
	h := sandboxtest.New(t)

	names := func(token string) []string {
		var roles []unikorn.Role

		h.CallAs(token, http.MethodGet, sandboxtest.OrganizationPath("/roles"), nil).Expect(http.StatusOK, &roles)

		out := []string{}
		for _, role := range roles {
			out = append(out, role.Metadata.Name)
		}

		return out
	}

	assert.Equal(t, []string{"administrator", "auditor", "reader", "user"}, names(sandbox.AdminToken))
	// Identity v1.18.1's auditor reads every class and volume (v1.17's read no volume
	// class, and so could not give the reader's role): it may give the reader's role,
	// never the administrator's or the user's writes.
	assert.Equal(t, []string{"auditor", "reader"}, names(h.TokenWithRole(sandbox.AuditorRoleID)), "an auditor holds neither administrator's nor user's writes")
}
