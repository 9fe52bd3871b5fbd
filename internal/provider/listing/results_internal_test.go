package listing

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/stretchr/testify/assert"
)

type object struct {
	name     string
	deleting bool
}

type byName struct {
	Name string
}

type objectIdentity struct {
	ID types.String `tfsdk:"id"`
}

// The results of a list are its finder's warnings, each a result of its own, then
// the objects that are not being deleted and that the configuration wants, up to the
// limit, which the warnings do not count against.
func TestResultsLeaveOutWhatIsDeletedOrUnwanted(t *testing.T) {
	t.Parallel()

	r := &Resource[object, byName]{
		Wanted: func(config *byName, o *object) bool { return o.name != config.Name },
		Show: func(o *object) Shown {
			return Shown{Name: o.name, ID: "id-" + o.name, Deleting: o.deleting, Identity: objectIdentity{ID: types.StringValue("id-" + o.name)}}
		},
	}

	req := list.ListRequest{
		Limit:          2,
		ResourceSchema: schema.Schema{Attributes: map[string]schema.Attribute{"id": schema.StringAttribute{Computed: true}}},
		ResourceIdentitySchema: identityschema.Schema{Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{RequiredForImport: true},
		}},
	}

	var warnings diag.Diagnostics
	warnings.AddWarning("left out", "one")
	warnings.AddWarning("left out", "two")

	objects := []object{{name: "a", deleting: true}, {name: "b"}, {name: "unwanted"}, {name: "c"}, {name: "d"}}

	var shown []string

	for result := range r.results(context.Background(), req, &byName{Name: "unwanted"}, warnings, objects) {
		assert.False(t, result.Diagnostics.HasError(), "%v", result.Diagnostics)

		if result.DisplayName == "" {
			shown = append(shown, "warning: "+result.Diagnostics[0].Detail())
		} else {
			shown = append(shown, result.DisplayName)
		}
	}

	assert.Equal(t, []string{"warning: one", "warning: two", "b (id-b)", "c (id-c)"}, shown)
}
