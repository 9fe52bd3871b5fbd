package networking

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
)

// defaultTimeout bounds a create, update or delete whose configuration sets no timeout.
const defaultTimeout = 20 * time.Minute

// resourceModel is the state of a resource of this package.
type resourceModel interface {
	family.Model
	common() *commonModel
}

// managed is the skeleton of this package's resources: region's objects of one kind,
// read and deleted by ID. Each resource adds its schema, create and update.
type managed[T any, M resourceModel] struct {
	family.Resource[T, M]
}

// newManaged is the skeleton for region's objects of one kind: their metadata is
// region's project-scoped metadata, and read and delete take their ID.
func newManaged[T any, M resourceModel](typeName, noun string, newModel func() M,
	read func(networking.Objects, context.Context, string) (*T, error),
	remove func(networking.Objects, context.Context, string, time.Time) error,
	set func(context.Context, M, *T, *diag.Diagnostics),
	metadata func(*T) *cloud.ProjectMetadata,
) managed[T, M] {
	return managed[T, M]{family.Resource[T, M]{
		Base: family.Base{Type: family.Type{
			Name: typeName, Noun: noun, Service: "region", Scope: family.Global,
			Timeout: defaultTimeout, Diagnose: diagnostic.Networking,
		}},
		Object: family.Object[T, M]{
			New: newModel,
			Read: func(ctx context.Context, p *providerdata.Data, key family.Key) (*T, error) {
				return read(p.Networking, ctx, key.ID)
			},
			Remove: func(ctx context.Context, p *providerdata.Data, key family.Key, created time.Time) error {
				return remove(p.Networking, ctx, key.ID, created)
			},
			Set: set,
			Lifecycle: func(object *T) (time.Time, bool) {
				m := metadata(object)

				return m.CreationTime, m.Deleting
			},
		},
	}}
}

// Keys are the object's ID; region's IDs are unique across organizations.
func (c *commonModel) Keys() (types.String, types.String) { return c.OrganizationID, c.ID }
