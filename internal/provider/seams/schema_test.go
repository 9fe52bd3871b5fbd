package seams_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
)

// servedSchema is what the provider tells Terraform about its resource types: the
// suite's cases are derived from it, so that a type or an attribute added later is
// covered, or named by TestSeamsCoverTheSchema, without anyone remembering the suite.
type servedSchema struct {
	// resources are the resource types' schemas by type name.
	resources map[string]*tfprotov6.Schema
	// identities are the resource identity schemas by type name.
	identities map[string]*tfprotov6.ResourceIdentitySchema
}

// schema asks the provider, through the protocol Terraform speaks, for its schemas.
func schema(t *testing.T) servedSchema {
	t.Helper()

	server := providerserver.NewProtocol6(provider.New(acctest.ProviderVersion)())()
	ctx := context.Background()

	resp, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	require.NoError(t, err)
	requireNoErrors(t, resp.Diagnostics)

	identities, err := server.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	require.NoError(t, err)
	requireNoErrors(t, identities.Diagnostics)

	return servedSchema{resources: resp.ResourceSchemas, identities: identities.IdentitySchemas}
}

func requireNoErrors(t *testing.T, diags []*tfprotov6.Diagnostic) {
	t.Helper()

	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("the provider's schema: %s: %s", d.Summary, d.Detail)
		}
	}
}

// typeNames are the resource types the provider serves, sorted.
func (s servedSchema) typeNames() []string {
	names := make([]string, 0, len(s.resources))
	for name := range s.resources {
		names = append(names, name)
	}

	slices.Sort(names)

	return names
}

// namesAnID is how the schema says that an attribute names other objects: by its
// name (`network_id`, `security_group_ids`), or, for one whose name says what it
// holds rather than what it is (file storage's `attachments`), by a description
// that says it holds IDs.
var (
	referenceName        = regexp.MustCompile(`_ids?$`)
	referenceDescription = regexp.MustCompile(`^IDs? of `)
)

// reference is an attribute the user sets to other objects' IDs.
type reference struct {
	name string
	// collection is true for a set or list of IDs, false for one ID.
	collection bool
}

// references are the attributes of typeName the user may set to the IDs of other
// objects, sorted by name. Only top-level attributes: no nested one holds an ID.
func (s servedSchema) references(typeName string) []reference {
	var refs []reference

	for _, attribute := range s.resources[typeName].Block.Attributes {
		// Nested attributes (timeouts, listeners) have no Type of their own.
		if (!attribute.Required && !attribute.Optional) || attribute.Type == nil {
			continue
		}

		collection := false

		switch {
		case attribute.Type.Is(tftypes.String):
		case attribute.Type.Is(tftypes.Set{ElementType: tftypes.String}), attribute.Type.Is(tftypes.List{ElementType: tftypes.String}):
			collection = true
		default:
			continue
		}

		if referenceName.MatchString(attribute.Name) || (collection && referenceDescription.MatchString(attribute.Description)) {
			refs = append(refs, reference{name: attribute.Name, collection: collection})
		}
	}

	slices.SortFunc(refs, func(a, b reference) int { return strings.Compare(a.name, b.name) })

	return refs
}

// identityAttributes are the attributes of typeName's resource identity.
func (s servedSchema) identityAttributes(typeName string) []string {
	return s.identityAttributesWhere(typeName, func(*tfprotov6.ResourceIdentitySchemaAttribute) bool { return true })
}

// requiredIdentityAttributes are the attributes of typeName's resource identity that
// an import by identity must give; the others the provider fills from its own.
func (s servedSchema) requiredIdentityAttributes(typeName string) []string {
	return s.identityAttributesWhere(typeName, func(a *tfprotov6.ResourceIdentitySchemaAttribute) bool { return a.RequiredForImport })
}

func (s servedSchema) identityAttributesWhere(typeName string, keep func(*tfprotov6.ResourceIdentitySchemaAttribute) bool) []string {
	identity, ok := s.identities[typeName]
	if !ok {
		return nil
	}

	names := make([]string, 0, len(identity.IdentityAttributes))
	for _, attribute := range identity.IdentityAttributes {
		if keep(attribute) {
			names = append(names, attribute.Name)
		}
	}

	slices.Sort(names)

	return names
}
