package loadbalancing

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// memberSetType is the type of a listener's members. After every read and apply the
// framework looks for semantically equal elements in a set by comparing each new
// member with each prior one, unless the set's own type answers for the whole set
// first. A pool of a few hundred instances made that tens of thousands of comparisons
// on every refresh of the load balancer, which waits for all of its members' reads; a
// memberSet answers for itself, so an unchanged pool costs one pass over its members.
type memberSetType struct {
	basetypes.SetType
}

var (
	_ basetypes.SetTypable                    = memberSetType{}
	_ basetypes.SetValuableWithSemanticEquals = memberSet{}
)

// newMemberSetType is the members' type, a set of memberType.
func newMemberSetType() memberSetType {
	return memberSetType{basetypes.SetType{ElemType: memberType}}
}

func (t memberSetType) Equal(o attr.Type) bool {
	other, ok := o.(memberSetType)

	return ok && t.SetType.Equal(other.SetType)
}

func (t memberSetType) String() string {
	return "loadbalancing.memberSetType[" + t.ElemType.String() + "]"
}

func (t memberSetType) ValueFromSet(_ context.Context, in basetypes.SetValue) (basetypes.SetValuable, diag.Diagnostics) {
	return memberSet{in}, nil
}

func (t memberSetType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	value, err := t.SetType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}

	set, ok := value.(basetypes.SetValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type %T for the members of a listener", value)
	}

	return memberSet{set}, nil
}

func (t memberSetType) ValueType(context.Context) attr.Value {
	return memberSet{}
}

// memberSet is a listener's members: a set of memberType that is semantically equal
// to another exactly when it is equal to it.
type memberSet struct {
	basetypes.SetValue
}

// newMemberSet is a known set of the given member objects.
func newMemberSet(elements []attr.Value) (memberSet, diag.Diagnostics) {
	set, diags := basetypes.NewSetValue(memberType, elements)

	return memberSet{set}, diags
}

func (v memberSet) Type(context.Context) attr.Type {
	return newMemberSetType()
}

func (v memberSet) Equal(o attr.Value) bool {
	other, ok := o.(memberSet)
	if !ok {
		return false
	}

	// The framework's set equality looks every element up in a fresh copy of the other
	// set's elements. A read keeps the prior members, in their order, where region holds
	// the same, so the members are first compared in order.
	return sameInOrder(v.SetValue, other.SetValue) || v.SetValue.Equal(other.SetValue)
}

// sameInOrder reports whether a and b are known sets of the same elements in the same
// order; false says nothing of whether they are equal as sets.
func sameInOrder(a, b basetypes.SetValue) bool {
	ctx := context.Background()

	if a.IsNull() || a.IsUnknown() || b.IsNull() || b.IsUnknown() || !a.ElementType(ctx).Equal(b.ElementType(ctx)) {
		return false
	}

	mine, theirs := a.Elements(), b.Elements()

	return slices.EqualFunc(mine, theirs, func(x, y attr.Value) bool { return x.Equal(y) })
}

// SetSemanticEquals keeps the prior members when they are these members; when they
// are not, the framework still compares the elements, none of which has a semantic
// equality of its own.
func (v memberSet) SetSemanticEquals(_ context.Context, prior basetypes.SetValuable) (bool, diag.Diagnostics) {
	return v.Equal(prior), nil
}
