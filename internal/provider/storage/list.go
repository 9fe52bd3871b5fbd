package storage

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/listing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
)

var (
	_ list.ListResource              = (*listResource)(nil)
	_ list.ListResourceWithConfigure = (*listResource)(nil)
)

// NewListResource returns the unikorn_file_storage list resource.
func NewListResource() list.ListResource {
	return &listResource{Base: listing.Base{TypeName: TypeName, Nouns: "file storage", Diagnose: diagnostic.Storage}}
}

// listResource finds file storage for `terraform query`. Each result is what the
// resource's Read makes of the storage after an import, so that generated
// configuration imports cleanly.
type listResource struct {
	listing.Base
}

type listConfig struct {
	family.Place
}

func (l *listResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds file storage for `terraform query`, to review it or to generate configuration " +
			"that imports it. Each result is named `<name> (<id>)` and carries the identity the resource has. " +
			"Storage that is being deleted is left out.",
		Attributes: map[string]schema.Attribute{
			"organization_id": listing.OrganizationAttribute(),
			"project_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only file storage of this project; without it, every project of the " +
					"organization the token can see is searched.",
				Validators: []validator.String{validators.UUID()},
			},
			"region_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only file storage of this region.",
				Validators:          []validator.String{validators.UUID()},
			},
		},
	}
}

func (l *listResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var config listConfig

	listing.Stream(ctx, &l.Base, req, stream, &config,
		func(ctx context.Context, organizationID string, _ *diag.Diagnostics) ([]storage.FileStorage, error) {
			return l.Provider.Storage.List(ctx, organizationID, config.ProjectID.ValueString(), config.RegionID.ValueString())
		},
		func(fs *storage.FileStorage) bool { return fs.Metadata.DeletionTime == nil },
		func(fs *storage.FileStorage) list.ListResult {
			identity := family.IdentityOf(family.Global, types.StringNull(), types.StringValue(fs.Metadata.ID))

			return listing.Result(ctx, req, fs.Metadata.Name, fs.Metadata.ID, identity,
				func(diags *diag.Diagnostics) (any, *timeouts.Value) {
					// What an import reads: the optional attributes the storage does
					// not use are unset.
					state := &resourceModel{storageModel: storageModel{
						Metadata: family.UnsetMetadata(), Attachments: types.SetNull(types.StringType),
					}}
					state.setKept(ctx, fs, diags)

					return state, &state.Timeouts
				})
		})
}
