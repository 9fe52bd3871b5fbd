// Package importing is the one import every importable resource type shares: an
// import ID (from `terraform import` or an `import` block's `id`) or an identity (an
// `import` block's `identity`) becomes the state's and the identity's attributes, the
// same ones either way.
//
// The identity is set on every path, not only when Terraform gave one: the framework
// (v1.19) requires a resource with an identity schema to answer every read with an
// identity that is not wholly null, and a read that finds no object removes the
// resource but leaves the identity as it was. Left null by an import by ID, that
// read ends in the framework's "Missing Resource Identity After Read", an internal
// error, where Terraform would have said "Cannot import non-existent remote object".
package importing

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// Form is one way to write an import ID: the attributes its slash-separated parts
// fill, in order, each named alike in the state and the identity, each a Unikorn
// ID. Every form ends with "id".
type Form []string

// ID is the form every type accepts: the object's ID alone.
var ID = Form{"id"}

// Type is what the import needs of a resource type.
type Type struct {
	// Name is the type's name, for the examples in a refusal.
	Name string
	// Noun names the object in messages: "network", "load balancer".
	Noun string
	// Forms are the import IDs the type accepts, ID first.
	Forms []Form
}

// Import fills the state and the identity from the import ID or the identity, once
// the provider can reach Unikorn (the read that follows needs it).
func (t Type) Import(ctx context.Context, provider *providerdata.Data, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !provider.Reachable("import the "+t.Noun, providerdata.RemedyImport, &resp.Diagnostics) {
		return
	}

	values := map[string]types.String{}

	if req.ID == "" {
		// An identity: Terraform has already checked it against the identity schema.
		for _, name := range t.attributes() {
			var value types.String

			resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root(name), &value)...)
			values[name] = value
		}
	} else {
		parsed, ok := t.Parse(req.ID)
		if !ok {
			resp.Diagnostics.Append(t.invalid(req.ID))

			return
		}

		for _, name := range t.attributes() {
			values[name] = types.StringNull()
			if value, ok := parsed[name]; ok {
				values[name] = types.StringValue(value)
			}
		}
	}

	if resp.Diagnostics.HasError() {
		return
	}

	for _, name := range t.attributes() {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(name), values[name])...)

		if resp.Identity != nil {
			resp.Diagnostics.Append(resp.Identity.SetAttribute(ctx, path.Root(name), values[name])...)
		}
	}
}

// Parse takes an import ID apart by the first form with as many parts, each a
// Unikorn ID; it reports false, and nothing, when no form fits.
func (t Type) Parse(importID string) (map[string]string, bool) {
	parts := strings.Split(importID, "/")
	for _, part := range parts {
		if !validators.IsUUID(part) {
			return nil, false
		}
	}

	for _, form := range t.forms() {
		if len(form) != len(parts) {
			continue
		}

		values := make(map[string]string, len(form))
		for i, name := range form {
			values[name] = parts[i]
		}

		return values, true
	}

	return nil, false
}

func (t Type) forms() []Form {
	if len(t.Forms) == 0 {
		return []Form{ID}
	}

	return t.Forms
}

// attributes are the attributes any form fills, each once.
func (t Type) attributes() []string {
	var names []string

	seen := map[string]bool{}

	for _, form := range t.forms() {
		for _, name := range form {
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}

	return names
}

// invalid refuses an import ID that fits no form, with every form there is.
func (t Type) invalid(importID string) diag.Diagnostic {
	written := make([]string, 0, len(t.forms()))
	for _, form := range t.forms() {
		written = append(written, "`"+strings.Join(form, "/")+"`")
	}

	example := "a0000000-0000-4000-8000-000000000001"

	return diagnostic.Error("Invalid import ID",
		fmt.Sprintf("The import ID %q fits none of the forms the %s takes: %s, each part a Unikorn ID (a lowercase UUID).",
			importID, t.Noun, strings.Join(written, " or ")),
		fmt.Sprintf("Import with the %s's ID, e.g. `terraform import %s.example %s`, or with an `import` block "+
			"whose `identity` names it.", t.Noun, t.Name, example))
}
