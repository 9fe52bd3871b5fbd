package floor

import (
	"context"
	"net/netip"
	"os"
	"strings"
	"testing"
	"testing/synctest"
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

	var all map[string]tftypes.Value
	require.NoError(t, known.As(&all))
	assert.True(t, all["tags"].IsNull(), "a collection only the cloud fills is none")

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

	return values
}

// The bench paces the floor through the environment Terraform starts it with: what
// Environ writes, PacingFromEnvironment reads back.
func TestPacingTravelsThroughTheEnvironment(t *testing.T) {
	pacing := Pacing{
		"unikorn_compute_instance": {Create: 2050 * time.Millisecond, Update: 2050 * time.Millisecond, Delete: 550 * time.Millisecond, Read: 25 * time.Millisecond},
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
// the real one's schema.
func TestTheFloorServesEveryResourceTypePacedByItsType(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	pacing := Pacing{"unikorn_network": {Create: time.Second}}

	provided := unikorn.New("test")().Resources(ctx)
	served := New("test", pacing)().Resources(ctx)
	require.Len(t, served, len(provided))

	for i, newResource := range served {
		floor, ok := newResource().(*floorResource)
		require.True(t, ok)

		name := typeName(ctx, floor)
		assert.Equal(t, typeName(ctx, provided[i]()), name)
		assert.Equal(t, pacing[name], floor.pace, name)
	}
}

// A read lasts its type's pace, as the cloud's answer takes a round trip: a refresh
// reads the objects one level of dependencies after another.
func TestAReadLastsARoundTrip(t *testing.T) {
	t.Parallel()

	synctest.Test(t, func(t *testing.T) {
		floor := &floorResource{pace: Pace{Read: 25 * time.Millisecond}}

		start := time.Now()
		floor.Read(t.Context(), resource.ReadRequest{}, &resource.ReadResponse{})
		assert.Equal(t, 25*time.Millisecond, time.Since(start))
	})
}

// Every resource's identity is made from what its create leaves in its state, under
// the identity's names, as the real resources' identities are.
func TestEveryIdentityIsMadeFromTheState(t *testing.T) {
	t.Parallel()

	ctx := context.Background()

	for _, newResource := range New("test", nil)().Resources(ctx) {
		floor, ok := newResource().(*floorResource)
		require.True(t, ok)

		name := typeName(ctx, floor)

		var identitySchema resource.IdentitySchemaResponse
		floor.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &identitySchema)

		if identitySchema.IdentitySchema.Attributes == nil {
			continue
		}

		var schema resource.SchemaResponse
		floor.Schema(ctx, resource.SchemaRequest{}, &schema)

		stateType := schema.Schema.Type().TerraformType(ctx)

		state, err := madeUp(unknownObject(t, stateType), tftypes.NewValue(stateType, nil))
		require.NoError(t, err, name)

		into := &tfsdk.ResourceIdentity{Schema: identitySchema.IdentitySchema}

		var diags diag.Diagnostics
		identify(ctx, state, into, &diags)
		require.False(t, diags.HasError(), "%s: %v", name, diags)

		for attribute := range identitySchema.IdentitySchema.Attributes {
			var (
				identified types.String
				held       string
			)
			require.False(t, into.GetAttribute(ctx, path.Root(attribute), &identified).HasError(), name)

			stateValue, _, err := tftypes.WalkAttributePath(state, tftypes.NewAttributePath().WithAttributeName(attribute))
			require.NoError(t, err, "%s: %s", name, attribute)
			require.NoError(t, stateValue.(tftypes.Value).As(&held), name) //nolint:forcetypeassert // an attribute is a value
			assert.NotEmpty(t, identified.ValueString(), "%s: %s", name, attribute)
			assert.Equal(t, held, identified.ValueString(), "%s: %s", name, attribute)
		}
	}
}

// An identity that names what the state lacks is refused, not made up as null.
func TestAnIdentityTheStateCannotFillIsRefused(t *testing.T) {
	t.Parallel()

	ctx := context.Background()

	var identitySchema resource.IdentitySchemaResponse
	instance.NewResource().(resource.ResourceWithIdentity).IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &identitySchema) //nolint:forcetypeassert // it has one

	state := tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "organization_id": tftypes.String}},
		map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, "i-1"), "organization_id": tftypes.NewValue(tftypes.String, "o-1")})

	var diags diag.Diagnostics
	identify(ctx, state, &tfsdk.ResourceIdentity{Schema: identitySchema.IdentitySchema}, &diags)
	require.True(t, diags.HasError())
	assert.Contains(t, diags.Errors()[0].Detail(), `"project_id"`)
}

// unknownObject is a value of objectType whose every attribute is unknown: a plan
// before the cloud has said anything.
func unknownObject(t *testing.T, objectType tftypes.Type) tftypes.Value {
	t.Helper()

	object, ok := objectType.(tftypes.Object)
	require.True(t, ok)

	attributes := make(map[string]tftypes.Value, len(object.AttributeTypes))
	for name, attributeType := range object.AttributeTypes {
		attributes[name] = tftypes.NewValue(attributeType, tftypes.UnknownValue)
	}

	return tftypes.NewValue(objectType, attributes)
}
