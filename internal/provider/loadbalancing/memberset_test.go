package loadbalancing

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func memberSetOf(t testing.TB, addresses ...string) memberSet {
	t.Helper()

	elements := make([]attr.Value, 0, len(addresses))
	for _, address := range addresses {
		elements = append(elements, types.ObjectValueMust(memberType.AttrTypes, map[string]attr.Value{
			"address": types.StringValue(address), "port": types.Int64Value(80),
		}))
	}

	set, diags := newMemberSet(elements)
	require.False(t, diags.HasError(), "%v", diags)

	return set
}

// TestAnUnchangedPoolAnswersForItselfAsAWhole: the framework takes the prior members
// without comparing them one by one only when the set says so.
func TestAnUnchangedPoolAnswersForItselfAsAWhole(t *testing.T) {
	ctx := context.Background()
	pool := memberSetOf(t, "10.0.0.1", "10.0.0.2", "10.0.0.3")

	for name, tc := range map[string]struct {
		prior basetypes.SetValuable
		equal bool
	}{
		"the same members in the same order": {prior: memberSetOf(t, "10.0.0.1", "10.0.0.2", "10.0.0.3"), equal: true},
		"the same members in another order":  {prior: memberSetOf(t, "10.0.0.3", "10.0.0.1", "10.0.0.2"), equal: true},
		"one member fewer":                   {prior: memberSetOf(t, "10.0.0.1", "10.0.0.2")},
		"another member":                     {prior: memberSetOf(t, "10.0.0.1", "10.0.0.2", "10.0.0.4")},
		"another member in the same place":   {prior: memberSetOf(t, "10.0.0.1", "10.0.0.4", "10.0.0.3")},
		"a plain set of the same members":    {prior: pool.SetValue},
	} {
		t.Run(name, func(t *testing.T) {
			equal, diags := pool.SetSemanticEquals(ctx, tc.prior)
			require.False(t, diags.HasError(), "%v", diags)
			assert.Equal(t, tc.equal, equal)
		})
	}
}

// TestAnUnchangedPoolIsComparedInOnePass: the framework's own set equality copies the
// other set's elements for every element, a thousand copies for a pool of a thousand;
// a pool a read kept from state is compared in one pass.
func TestAnUnchangedPoolIsComparedInOnePass(t *testing.T) {
	addresses := make([]string, 1000)
	for i := range addresses {
		addresses[i] = fmt.Sprintf("10.0.%d.%d", i/250, i%250+1)
	}

	pool, kept := memberSetOf(t, addresses...), memberSetOf(t, addresses...)
	equal := false

	allocations := testing.AllocsPerRun(5, func() { equal, _ = pool.SetSemanticEquals(context.Background(), kept) })

	assert.True(t, equal)
	assert.LessOrEqual(t, allocations, 10.0, "allocations of one comparison of a pool of 1,000")
}

// TestMembersComeBackFromTerraformAsAMemberSet: state read from Terraform holds values
// of the type the schema declares, or the framework never asks them.
func TestMembersComeBackFromTerraformAsAMemberSet(t *testing.T) {
	ctx := context.Background()
	pool := memberSetOf(t, "10.0.0.1", "10.0.0.2")

	raw, err := pool.ToTerraformValue(ctx)
	require.NoError(t, err)

	value, err := newMemberSetType().ValueFromTerraform(ctx, raw)
	require.NoError(t, err)
	assert.Equal(t, pool, value)

	null, err := newMemberSetType().ValueFromTerraform(ctx, tftypes.NewValue(newMemberSetType().TerraformType(ctx), nil))
	require.NoError(t, err)
	assert.True(t, null.IsNull())
	assert.IsType(t, memberSet{}, null)
}

// TestEveryListenerHoldsItsMembersAsAMemberSet: the resource's and the data source's
// listeners both declare the members' type, so both hold values of it.
func TestEveryListenerHoldsItsMembersAsAMemberSet(t *testing.T) {
	ctx := context.Background()
	members := path.Root("listeners").AtMapKey("web").AtName("members")

	var resourceSchema resource.SchemaResponse
	NewResource().Schema(ctx, resource.SchemaRequest{}, &resourceSchema)

	var dataSourceSchema datasource.SchemaResponse
	NewDataSource().Schema(ctx, datasource.SchemaRequest{}, &dataSourceSchema)

	resourceMembers, diags := resourceSchema.Schema.AttributeAtPath(ctx, members)
	require.False(t, diags.HasError(), "%v", diags)
	assert.Equal(t, newMemberSetType(), resourceMembers.GetType(), "the resource's members")

	dataSourceMembers, diags := dataSourceSchema.Schema.AttributeAtPath(ctx, members)
	require.False(t, diags.HasError(), "%v", diags)
	assert.Equal(t, newMemberSetType(), dataSourceMembers.GetType(), "the data source's members")

	assert.Equal(t, newMemberSetType(), listenerType.AttrTypes["members"], "the listeners' object type")
}
