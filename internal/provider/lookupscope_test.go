package provider_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
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
			want: []string{`No instance is named "nothing" in network ` + sandbox.NetworkDefaultID + ".", "(network_id)"},
			not:  []string{"project", "organization"},
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

	for _, token := range []string{sandbox.ServiceToken, sandbox.AdminToken} {
		servers[token] = configuredProvider(t, world.URL, token)
	}

	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			server := servers[sandbox.ServiceToken]
			if tt.token != "" {
				server = servers[tt.token]
			}

			schemas, err := server.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
			require.NoError(t, err)

			schema, ok := schemas.DataSourceSchemas[tt.typeName]
			require.True(t, ok, "%s is served", tt.typeName)

			values := map[string]tftypes.Value{}
			for attribute, value := range tt.set {
				values[attribute] = tftypes.NewValue(tftypes.String, value)
			}

			read, err := server.ReadDataSource(t.Context(), &tfprotov6.ReadDataSourceRequest{
				TypeName: tt.typeName, Config: objectOf(t, schema.Block, values),
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

// configuredProvider is the provider served over the plugin protocol, configured for
// the sandbox at url with token, in the fixture organization and project.
func configuredProvider(t *testing.T, url, token string) tfprotov6.ProviderServer {
	t.Helper()

	server, err := providerserver.NewProtocol6WithError(provider.New(acctest.ProviderVersion)())()
	require.NoError(t, err)

	schemas, err := server.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	require.NoError(t, err)

	configured, err := server.ConfigureProvider(t.Context(), &tfprotov6.ConfigureProviderRequest{
		Config: objectOf(t, schemas.Provider.Block, map[string]tftypes.Value{
			"region_endpoint":   tftypes.NewValue(tftypes.String, url),
			"identity_endpoint": tftypes.NewValue(tftypes.String, url),
			"token":             tftypes.NewValue(tftypes.String, token),
			"organization_id":   tftypes.NewValue(tftypes.String, sandbox.OrganizationID),
			"project_id":        tftypes.NewValue(tftypes.String, sandbox.ProjectID),
		}),
	})
	require.NoError(t, err)
	require.Empty(t, configured.Diagnostics)

	return server
}

// objectOf is a value of the block's type with the given attributes set and every
// other one null, as Terraform sends a configuration.
func objectOf(t *testing.T, block *tfprotov6.SchemaBlock, set map[string]tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()

	typ, ok := block.ValueType().(tftypes.Object)
	require.True(t, ok, "a block is an object")

	values := map[string]tftypes.Value{}

	for name, attributeType := range typ.AttributeTypes {
		value, ok := set[name]
		if !ok {
			value = tftypes.NewValue(attributeType, nil)
		}

		values[name] = value
	}

	value, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, values))
	require.NoError(t, err)

	return &value
}
