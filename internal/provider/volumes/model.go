package volumes

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/volumes"
)

// model is a volume as the resource and the data source both hold it.
type model struct {
	family.Metadata
	family.Place

	ID            types.String `tfsdk:"id"`
	NetworkID     types.String `tfsdk:"network_id"`
	VolumeClassID types.String `tfsdk:"volume_class_id"`
	SizeGiB       types.Int64  `tfsdk:"size_gib"`
}

// resourceModel is the resource's state and plan.
type resourceModel struct {
	model
	family.Timed
}

// Keys are the volume's ID: region's IDs are unique across organizations.
func (m *resourceModel) Keys() (types.String, types.String) { return m.OrganizationID, m.ID }

// dataModel is the data source's: what the resource holds, and whether an instance
// holds the volume now.
type dataModel struct {
	model

	Attached types.Bool `tfsdk:"attached"`
}

// setKept fills a resource's model from region's record: an unset description or
// tags stay unset while region holds none (see family.Metadata.Set).
func (m *model) setKept(ctx context.Context, volume *volumes.Volume, diags *diag.Diagnostics) {
	m.SetFrom(ctx, volume.Metadata.WriteMetadata, diags)
	m.setRest(volume)
}

// setFound fills a look-up's model from region's record (see family.Metadata.Found).
func (m *dataModel) setFound(ctx context.Context, volume *volumes.Volume, diags *diag.Diagnostics) {
	m.Found(ctx, volume.Metadata.Name, volume.Metadata.Description, cloud.TagMap(volume.Metadata.Tags), diags)
	m.setRest(volume)
	m.Attached = types.BoolValue(volume.AttachedAt != nil)
}

func (m *model) setRest(volume *volumes.Volume) {
	metadata := &volume.Metadata

	m.ID = types.StringValue(metadata.ID)
	m.Place = family.PlaceOf(metadata.OrganizationID, metadata.ProjectID, volume.RegionID)
	m.NetworkID = types.StringValue(volume.NetworkID)
	m.VolumeClassID = types.StringValue(volume.ClassID)
	m.SizeGiB = types.Int64Value(volume.SizeGiB)
}

// create is the volume the plan asks for.
func (m *model) create(ctx context.Context, diags *diag.Diagnostics) volumes.Create {
	return volumes.Create{
		Metadata:  m.Write(ctx, diags),
		NetworkID: m.NetworkID.ValueString(),
		ClassID:   m.VolumeClassID.ValueString(),
		SizeGiB:   m.SizeGiB.ValueInt64(),
	}
}
