package floor

import (
	"context"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	unikorn "github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/instance"
)

// What only the cloud would know is made up, of its type and as other resources take
// it; what the plan knew is kept.
func TestMadeUpFillsOnlyTheUnknown(t *testing.T) {
	t.Parallel()

	known, err := madeUp(planned(), tftypes.NewValue(instanceType, nil))
	require.NoError(t, err)
	assert.True(t, known.IsFullyKnown())

	attributes := stringsOf(t, known)
	assert.Equal(t, "web", attributes["name"])
	assert.NoError(t, uuid.Validate(attributes["id"]), "an ID is made up as one")
	assert.True(t, netip.MustParseAddr(attributes["private_ip"]).Is4(), "an address is made up as one")
	assert.Equal(t, "floor", attributes["power_state"])

	again, err := madeUp(planned(), tftypes.NewValue(instanceType, nil))
	require.NoError(t, err)
	assert.NotEqual(t, attributes["private_ip"], stringsOf(t, again)["private_ip"], "each address is new")
	assert.NotEqual(t, attributes["id"], stringsOf(t, again)["id"], "each ID is new")
}

// An update keeps what the cloud reported before, as a cloud keeps an updated
// instance's address: a load balancer over it sees nothing change.
func TestMadeUpKeepsWhatThePriorStateKnew(t *testing.T) {
	t.Parallel()

	created, err := madeUp(planned(), tftypes.NewValue(instanceType, nil))
	require.NoError(t, err)

	updated, err := madeUp(planned(), created)
	require.NoError(t, err)
	assert.True(t, updated.Equal(created))
}

var instanceType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"name": tftypes.String, "id": tftypes.String, "private_ip": tftypes.String, "power_state": tftypes.String,
	"public_ip": tftypes.Bool, "tags": tftypes.Map{ElementType: tftypes.String},
}}

// planned is an instance's plan, with what only the cloud knows unknown.
func planned() tftypes.Value {
	return tftypes.NewValue(instanceType, map[string]tftypes.Value{
		"name":        tftypes.NewValue(tftypes.String, "web"),
		"id":          tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"private_ip":  tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"power_state": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"public_ip":   tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue),
		"tags":        tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, tftypes.UnknownValue),
	})
}

// stringsOf are the string attributes of an instance's value.
func stringsOf(t *testing.T, value tftypes.Value) map[string]string {
	t.Helper()

	var attributes map[string]tftypes.Value
	require.NoError(t, value.As(&attributes))

	values := map[string]string{}

	for name, attribute := range attributes {
		var s string
		if attribute.Type().Is(tftypes.String) {
			require.NoError(t, attribute.As(&s))
			values[name] = s
		}
	}

	assert.True(t, attributes["tags"].IsNull(), "a collection only the cloud fills is none")

	return values
}

// The bench paces the floor through the environment Terraform starts it with: what
// Environ writes, PacingFromEnvironment reads back.
func TestPacingTravelsThroughTheEnvironment(t *testing.T) {
	pacing := Pacing{
		"unikorn_compute_instance": {Create: 2050 * time.Millisecond, Update: 2050 * time.Millisecond, Delete: 550 * time.Millisecond},
		"unikorn_network":          {Create: 2075 * time.Millisecond, Delete: 550 * time.Millisecond},
	}

	for _, entry := range pacing.Environ() {
		name, value, _ := strings.Cut(entry, "=")
		t.Setenv(name, value)
	}

	read, err := PacingFromEnvironment()
	require.NoError(t, err)
	assert.Equal(t, pacing, read)
}

// A pace that is no duration stops the floor, naming the variable and the type, rather
// than measuring a floor that does not wait.
func TestPacingRefusesWhatIsNoDuration(t *testing.T) {
	for _, value := range []string{"2", "-1s", "soon"} {
		t.Setenv(PacingVariable, `{"unikorn_network":{"update":"`+value+`"}}`)

		_, err := PacingFromEnvironment()
		require.Error(t, err, value)
		assert.Contains(t, err.Error(), PacingVariable)
		assert.Contains(t, err.Error(), "update of unikorn_network")
	}

	t.Setenv(PacingVariable, "2s")
	_, err := PacingFromEnvironment()
	require.ErrorContains(t, err, PacingVariable)
}

// Unpaced, nothing waits.
func TestPacingUnsetIsNoPause(t *testing.T) {
	t.Setenv(PacingVariable, "")
	require.NoError(t, os.Unsetenv(PacingVariable))

	read, err := PacingFromEnvironment()
	require.NoError(t, err)
	assert.Empty(t, read)
	assert.Equal(t, Pace{}, read["unikorn_compute_instance"])
}

// The floor serves every resource type of the provider, each paced as its type is, with
// the real one's schema; its identity is made from its state.
func TestTheFloorServesEveryResourceTypePacedByItsType(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	pacing := Pacing{"unikorn_network": {Create: time.Second}}

	provided := unikorn.New("test")().Resources(ctx)
	served := New("test", pacing)().Resources(ctx)
	require.Len(t, served, len(provided))

	for i, newResource := range served {
		floorResource, ok := newResource().(*floorResource)
		require.True(t, ok)

		var metadata resource.MetadataResponse
		floorResource.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: unikorn.TypeName}, &metadata)

		var realMetadata resource.MetadataResponse
		provided[i]().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: unikorn.TypeName}, &realMetadata)
		assert.Equal(t, realMetadata.TypeName, metadata.TypeName)
		assert.Equal(t, pacing[metadata.TypeName], floorResource.pace, metadata.TypeName)
	}
}

// A created resource's identity is what its state holds under the identity's names.
func TestTheIdentityIsMadeFromTheState(t *testing.T) {
	t.Parallel()

	ctx := context.Background()

	var identitySchema resource.IdentitySchemaResponse
	instance.NewResource().(resource.ResourceWithIdentity).IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &identitySchema) //nolint:forcetypeassert // it has one

	state := tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"id": tftypes.String, "organization_id": tftypes.String, "project_id": tftypes.String, "name": tftypes.String,
	}}, map[string]tftypes.Value{
		"id":              tftypes.NewValue(tftypes.String, "i-1"),
		"organization_id": tftypes.NewValue(tftypes.String, "o-1"),
		"project_id":      tftypes.NewValue(tftypes.String, "p-1"),
		"name":            tftypes.NewValue(tftypes.String, "web"),
	})

	into := &tfsdk.ResourceIdentity{Schema: identitySchema.IdentitySchema}

	var diags diag.Diagnostics
	identify(ctx, state, into, &diags)
	require.False(t, diags.HasError(), diags)

	var id, organization types.String
	require.False(t, into.GetAttribute(ctx, path.Root("id"), &id).HasError())
	require.False(t, into.GetAttribute(ctx, path.Root("organization_id"), &organization).HasError())
	assert.Equal(t, "i-1", id.ValueString())
	assert.Equal(t, "o-1", organization.ValueString())
}
