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
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
)

// NewListResource returns the unikorn_file_storage list resource.
func NewListResource() list.ListResource {
	return &listing.Resource[storage.FileStorage, family.Place]{
		Base: listing.Base{TypeName: TypeName, Nouns: "file storage", Diagnose: diagnostic.Storage},
		Description: "Finds file storage for `terraform query`, to review it or to generate configuration " +
			"that imports it. Each result is named `<name> (<id>)` and carries the identity the resource has. " +
			"Storage that is being deleted is left out.",
		Attributes: map[string]schema.Attribute{
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
		Find: func(ctx context.Context, provider *providerdata.Data, config *family.Place, organizationID string,
			_ *diag.Diagnostics,
		) ([]storage.FileStorage, error) {
			return provider.Storage.List(ctx, organizationID, config.ProjectID.ValueString(), config.RegionID.ValueString())
		},
		Show: func(fs *storage.FileStorage) listing.Shown { return listing.Project(&fs.Metadata) },
		State: func(ctx context.Context, fs *storage.FileStorage, diags *diag.Diagnostics) (any, *timeouts.Value) {
			// What an import reads: the optional attributes the storage does not use
			// are unset.
			state := &resourceModel{storageModel: storageModel{
				Metadata: family.UnsetMetadata(), Attachments: types.SetNull(types.StringType),
			}}
			state.setKept(ctx, fs, diags)

			return state, &state.Timeouts
		},
	}
}
