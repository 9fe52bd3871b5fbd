package family

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// Metadata is what every Unikorn object carries of its own: a name, a description and
// tags. Embedded in a model, it gives the attributes name, description and tags.
type Metadata struct {
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	Tags        types.Map    `tfsdk:"tags"`
}

// UnsetMetadata is the metadata as a configuration that sets neither description nor
// tags has it: what a listed or imported object starts from.
func UnsetMetadata() Metadata {
	return Metadata{Description: types.StringNull(), Tags: types.MapNull(types.StringType)}
}

// TagMap is the tags by name; none when unset.
func (m *Metadata) TagMap(ctx context.Context, diags *diag.Diagnostics) map[string]string {
	tags := map[string]string{}
	if !m.Tags.IsNull() && !m.Tags.IsUnknown() {
		diags.Append(m.Tags.ElementsAs(ctx, &tags, false)...)
	}

	return tags
}

// Write is the metadata as a Unikorn service takes it, tags in name order.
func (m *Metadata) Write(ctx context.Context, diags *diag.Diagnostics) cloud.WriteMetadata {
	return cloud.WriteMetadata{
		Name:        m.Name.ValueString(),
		Description: m.Description.ValueString(),
		Tags:        cloud.TagsOf(m.TagMap(ctx, diags)),
	}
}

// Set fills the metadata from what the service holds. A description or tags that the
// model holds as null, and the service as empty, stay null, so that a configuration
// that leaves them out plans no change.
func (m *Metadata) Set(ctx context.Context, name, description string, tags map[string]string, diags *diag.Diagnostics) {
	m.Name = types.StringValue(name)

	if description != "" || !m.Description.IsNull() {
		m.Description = types.StringValue(description)
	}

	if len(tags) == 0 && m.Tags.IsNull() {
		return
	}

	if tags == nil {
		tags = map[string]string{}
	}

	value, d := types.MapValueFrom(ctx, types.StringType, tags)
	diags.Append(d...)
	m.Tags = value
}

// SetFrom is Set from a service's own metadata.
func (m *Metadata) SetFrom(ctx context.Context, metadata cloud.WriteMetadata, diags *diag.Diagnostics) {
	m.Set(ctx, metadata.Name, metadata.Description, cloud.TagMap(metadata.Tags), diags)
}

// Found fills a look-up's metadata: a description only when the object has one, and
// tags always, empty when it has none, so that expressions over them need no null check.
func (m *Metadata) Found(ctx context.Context, name, description string, tags map[string]string, diags *diag.Diagnostics) {
	m.Name = types.StringValue(name)
	m.Description = types.StringNull()

	if description != "" {
		m.Description = types.StringValue(description)
	}

	if tags == nil {
		tags = map[string]string{}
	}

	value, d := types.MapValueFrom(ctx, types.StringType, tags)
	diags.Append(d...)
	m.Tags = value
}
