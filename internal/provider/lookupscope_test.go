package provider_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// absent is an ID that names nothing in the sandbox.
const absent = "c0000000-0000-4000-8000-0000000000ff"

// Every look-up that finds nothing says where it looked, in the scope its kind has:
// identity's projects, groups, users and roles are an organization's, region's objects
// a project's (or a network's), an instance's name is its network's, and an object
// read by its ID was looked for wherever the token may see it. Its error points at
// the attribute that selected it, and names that scope's attributes, not another's.
func TestEveryLookUpsMissSaysTheScopeItSearched(t *testing.T) {
	t.Parallel()

	inProject := "in project " + sandbox.ProjectID + " of organization " + sandbox.OrganizationID
	inOrganization := "in organization " + sandbox.OrganizationID
	// Words that would place an organization's object in a project.
	project := []string{"project_id", "project " + sandbox.ProjectID, "'s project", "in project"}

	tests := map[string]struct {
		typeName string
		token    string
		set      map[string]string
		// attribute is where the error points; want are phrases it must say, and
		// not phrases it must not.
		attribute string
		want, not []string
	}{
		"network by ID": {
			typeName: "unikorn_network", set: map[string]string{"id": absent}, attribute: "id",
			want: []string{"Network " + absent + " does not exist or is not visible", "member of the network's project"},
			not:  []string{"in organization", "in project"},
		},
		"network by name": {
			typeName: "unikorn_network", set: map[string]string{"name": "nothing"}, attribute: "name",
			want: []string{`No network is named "nothing" ` + inProject, "(organization_id, project_id)"},
		},
		"security group by name on a network": {
			typeName: "unikorn_security_group", set: map[string]string{"name": "nothing", "network_id": sandbox.NetworkDefaultID},
			attribute: "name",
			want: []string{
				`No security group is named "nothing" in network ` + sandbox.NetworkDefaultID + " " + inProject,
				"(organization_id, project_id, network_id)",
			},
		},
		"SSH certificate authority by name": {
			typeName: "unikorn_ssh_certificate_authority", set: map[string]string{"name": "nothing"}, attribute: "name",
			want: []string{`No SSH certificate authority is named "nothing" ` + inProject},
		},
		"file storage by ID": {
			typeName: "unikorn_file_storage", set: map[string]string{"id": absent}, attribute: "id",
			want: []string{"File storage " + absent + " does not exist or is not visible", "member of the file storage's project"},
		},
		"file storage by name": {
			typeName: "unikorn_file_storage", set: map[string]string{"name": "nothing"}, attribute: "name",
			want: []string{`No file storage is named "nothing" ` + inProject, "(organization_id, project_id)"},
		},
		"load balancer by ID": {
			typeName: "unikorn_load_balancer", set: map[string]string{"id": absent}, attribute: "id",
			want: []string{"Load balancer " + absent + " does not exist or is not visible", "member of the load balancer's project"},
		},
		"load balancer by name": {
			typeName: "unikorn_load_balancer", set: map[string]string{"name": "nothing"}, attribute: "name",
			want: []string{`No load balancer is named "nothing" ` + inProject, "(organization_id, project_id, network_id)"},
		},
		"instance by ID": {
			typeName: "unikorn_compute_instance", set: map[string]string{"id": absent}, attribute: "id",
			want: []string{"Instance " + absent + " does not exist or is not visible", "member of the instance's project"},
		},
		"instance by name": {
			typeName: "unikorn_compute_instance", set: map[string]string{"name": "nothing", "network_id": sandbox.NetworkDefaultID},
			attribute: "name",
			want:      []string{`No instance is named "nothing" in network ` + sandbox.NetworkDefaultID + ".", "(network_id)"},
			not:       []string{"project", "organization"},
		},
		"project by ID": {
			typeName: "unikorn_project", token: sandbox.AdminToken, set: map[string]string{"id": absent}, attribute: "id",
			want: []string{"Project " + absent + " does not exist " + inOrganization, "organization_id"},
			not:  []string{"project_id", "'s project"},
		},
		"project by name": {
			typeName: "unikorn_project", token: sandbox.AdminToken, set: map[string]string{"name": "nothing"}, attribute: "name",
			want: []string{`No project is named "nothing" ` + inOrganization, "(organization_id)"},
			not:  []string{"project_id"},
		},
		"group by ID": {
			typeName: "unikorn_group", token: sandbox.AdminToken, set: map[string]string{"id": absent}, attribute: "id",
			want: []string{"Group " + absent + " does not exist " + inOrganization},
			not:  project,
		},
		"group by name": {
			typeName: "unikorn_group", token: sandbox.AdminToken, set: map[string]string{"name": "nothing"}, attribute: "name",
			want: []string{`No group is named "nothing" ` + inOrganization, "(organization_id)"},
			not:  project,
		},
		"user by ID": {
			typeName: "unikorn_user", token: sandbox.AdminToken, set: map[string]string{"id": absent}, attribute: "id",
			want: []string{"User " + absent + " does not exist " + inOrganization},
			not:  project,
		},
		"user by subject": {
			typeName: "unikorn_user", token: sandbox.AdminToken, set: map[string]string{"subject": "nobody@example.com"},
			attribute: "subject",
			want:      []string{`No user ` + inOrganization + ` has the subject "nobody@example.com"`, "Check the subject", "(organization_id)"},
			not:       project,
		},
		"role by name": {
			typeName: "unikorn_role", token: sandbox.AdminToken, set: map[string]string{"name": "nothing"}, attribute: "name",
			want: []string{`No role is named "nothing" ` + inOrganization, "(organization_id)"},
			not:  project,
		},
	}

	world := cloudtest.Start(t, cloudtest.Config{})
	servers := map[string]tfprotov6.ProviderServer{}
	schemas := map[string]*tfprotov6.Schema{}

	for _, token := range []string{sandbox.PlatformAdminToken, sandbox.AdminToken} {
		server, served := acctest.ProtocolServer(t, map[string]string{
			"region_endpoint": world.URL, "identity_endpoint": world.URL, "token": token,
			"organization_id": sandbox.OrganizationID, "project_id": sandbox.ProjectID,
		})
		servers[token], schemas = server, served.DataSourceSchemas
	}

	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			server := servers[sandbox.PlatformAdminToken]
			if tt.token != "" {
				server = servers[tt.token]
			}

			schema, ok := schemas[tt.typeName]
			require.True(t, ok, "%s is served", tt.typeName)

			read, err := server.ReadDataSource(t.Context(), &tfprotov6.ReadDataSourceRequest{
				TypeName: tt.typeName, Config: acctest.DynamicValue(t, schema.Block, acctest.Strings(tt.set)),
			})
			require.NoError(t, err)
			require.Len(t, read.Diagnostics, 1, "one error")

			d := read.Diagnostics[0]
			said := strings.Join(strings.Fields(d.Summary+" "+d.Detail), " ")

			assert.Equal(t, tfprotov6.DiagnosticSeverityError, d.Severity)
			assert.True(t, d.Attribute.Equal(tftypes.NewAttributePath().WithAttributeName(tt.attribute)),
				"the error points at %s, not %v:\n%s", tt.attribute, d.Attribute, said)

			for _, phrase := range tt.want {
				assert.Contains(t, said, phrase)
			}

			for _, phrase := range tt.not {
				assert.NotContains(t, said, phrase)
			}
		})
	}
}
