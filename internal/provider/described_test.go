package provider_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
)

// Every validator and plan modifier of every schema the provider serves says what it
// does: the provider's own give their words once (validators.Described), and one made
// without them would describe itself as nothing.
func TestEveryValidatorAndPlanModifierDescribesItself(t *testing.T) {
	ctx := context.Background()
	unikorn, ok := provider.New("test")().(interface {
		fwprovider.ProviderWithEphemeralResources
		fwprovider.ProviderWithActions
		fwprovider.ProviderWithListResources
	})
	require.True(t, ok, "the provider serves every kind")

	// Each schema by the Go type that serves it.
	schemas := map[string]any{}
	schemaOf := func(served any, schema any) { schemas[fmt.Sprintf("%T", served)] = schema }

	for _, newResource := range unikorn.Resources(ctx) {
		var response resource.SchemaResponse
		r := newResource()
		r.Schema(ctx, resource.SchemaRequest{}, &response)
		schemaOf(r, response.Schema)
	}

	for _, newDataSource := range unikorn.DataSources(ctx) {
		var response datasource.SchemaResponse
		d := newDataSource()
		d.Schema(ctx, datasource.SchemaRequest{}, &response)
		schemaOf(d, response.Schema)
	}

	for _, newEphemeral := range unikorn.EphemeralResources(ctx) {
		var response ephemeral.SchemaResponse
		e := newEphemeral()
		e.Schema(ctx, ephemeral.SchemaRequest{}, &response)
		schemaOf(e, response.Schema)
	}

	for _, newAction := range unikorn.Actions(ctx) {
		var response action.SchemaResponse
		a := newAction()
		a.Schema(ctx, action.SchemaRequest{}, &response)
		schemaOf(a, response.Schema)
	}

	for _, newList := range unikorn.ListResources(ctx) {
		var response list.ListResourceSchemaResponse
		l := newList()
		l.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &response)
		schemaOf(l, response.Schema)
	}

	var response fwprovider.SchemaResponse
	unikorn.Schema(ctx, fwprovider.SchemaRequest{}, &response)
	schemaOf(unikorn, response.Schema)

	described := 0

	for where, schema := range schemas {
		walkDescribers(reflect.ValueOf(schema), where, func(at string, d interface {
			Description(context.Context) string
		},
		) {
			described++

			// A wrapper (setvalidator.ValueStringsAre) ends its words with those of
			// what it wraps: nothing there is a validator without words inside it.
			words := strings.TrimSpace(d.Description(ctx))
			assert.False(t, words == "" || strings.HasSuffix(words, ":") || strings.Contains(words, "+  +"),
				"%s: a %T describes itself as %q", at, d, words)
		})
	}

	// The walk reaches the provider's own: a name validator on every named type at least.
	assert.Greater(t, described, 50)
}

// walkDescribers calls found for each element of every Validators and PlanModifiers
// field in a schema, through its attributes, nested attributes and blocks.
func walkDescribers(v reflect.Value, at string, found func(string, interface {
	Description(context.Context) string
}),
) {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}

		v = v.Elem()
	}

	switch v.Kind() {
	case reflect.Map:
		for _, key := range v.MapKeys() {
			walkDescribers(v.MapIndex(key), at+"."+key.String(), found)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			field := v.Type().Field(i)

			switch field.Name {
			case "Validators", "PlanModifiers":
				for j := range v.Field(i).Len() {
					if d, ok := v.Field(i).Index(j).Interface().(interface {
						Description(context.Context) string
					}); ok {
						found(at, d)
					}
				}
			case "Attributes", "Blocks", "NestedObject":
				walkDescribers(v.Field(i), at, found)
			}
		}
	}
}
