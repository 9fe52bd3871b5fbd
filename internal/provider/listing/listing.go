// Package listing holds what the provider's list resources share.
package listing

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// NullTimeouts is an unset timeouts block, for a listed resource's state: generated
// configuration then leaves it out. Even a null object needs its attribute types, and
// only the resource schema knows them.
func NullTimeouts(ctx context.Context, resourceSchema interface {
	TypeAtPath(context.Context, path.Path) (attr.Type, diag.Diagnostics)
}, diags *diag.Diagnostics,
) timeouts.Value {
	typ, d := resourceSchema.TypeAtPath(ctx, path.Root("timeouts"))
	diags.Append(d...)

	object, ok := typ.(attr.TypeWithAttributeTypes)
	if !ok {
		diags.AddError("Unexpected timeouts type", fmt.Sprintf("The resource schema gives timeouts the type %T, which is not an object. "+
			"This is a bug in the provider; please report it.", typ))

		return timeouts.Value{}
	}

	return timeouts.Value{Object: types.ObjectNull(object.AttributeTypes())}
}
