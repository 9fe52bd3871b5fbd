package instance

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/planning"
)

var (
	pathPublicIP           = path.Root("public_ip")
	pathUserDataW          = path.Root("user_data_wo")
	pathProvisioningStatus = path.Root("provisioning_status")
	pathSecurityGroupIDs   = path.Root("security_group_ids")
	pathVolumeIDs          = path.Root("volume_ids")
)

// attachmentType is one of volume_attachments.
var attachmentType = types.ObjectType{AttrTypes: map[string]attr.Type{"device": types.StringType, "status": types.StringType}}

// attachmentModel is one of volume_attachments.
type attachmentModel struct {
	Device types.String `tfsdk:"device"`
	Status types.String `tfsdk:"status"`
}

// observed is what the resource and the data source both show of an instance. Its
// name, description and tags follow the resource rule (family.Metadata's Set) in the
// data source too, as they always have: tags an instance has none of are null.
type observed struct {
	family.Metadata
	family.Place

	ID                        types.String `tfsdk:"id"`
	NetworkID                 types.String `tfsdk:"network_id"`
	FlavorID                  types.String `tfsdk:"flavor_id"`
	ImageID                   types.String `tfsdk:"image_id"`
	SSHCertificateAuthorityID types.String `tfsdk:"ssh_certificate_authority_id"`
	SecurityGroupIDs          types.Set    `tfsdk:"security_group_ids"`
	PublicIP                  types.Bool   `tfsdk:"public_ip"`
	AllowedSourceAddresses    types.Set    `tfsdk:"allowed_source_addresses"`
	VolumeIDs                 types.Set    `tfsdk:"volume_ids"`
	VolumeAttachments         types.Map    `tfsdk:"volume_attachments"`
	PrivateIP                 types.String `tfsdk:"private_ip"`
	PublicIPAddress           types.String `tfsdk:"public_ip_address"`
	MACAddress                types.String `tfsdk:"mac_address"`
	PowerState                types.String `tfsdk:"power_state"`
	ProvisioningStatus        types.String `tfsdk:"provisioning_status"`
	HealthStatus              types.String `tfsdk:"health_status"`
	CreationTime              types.String `tfsdk:"creation_time"`
}

// model is the resource's state and plan.
type model struct {
	observed
	family.Timed

	UserData          types.String `tfsdk:"user_data"`
	UserDataWO        types.String `tfsdk:"user_data_wo"`
	UserDataWOVersion types.Int64  `tfsdk:"user_data_wo_version"`
}

// identityModel is the resource identity: enough to find the instance again.
type identityModel struct {
	ID             types.String `tfsdk:"id"`
	OrganizationID types.String `tfsdk:"organization_id"`
	ProjectID      types.String `tfsdk:"project_id"`
}

// allKnown reports whether every input the façade validates is known, each element
// of its collections included (a security group made in the same apply), i.e. whether
// a plan can be checked against the cloud. One that is not is checked by the plan made
// again at apply.
func (m *model) allKnown() bool {
	for _, value := range []interface{ IsUnknown() bool }{
		m.Name, m.NetworkID, m.FlavorID, m.ImageID, m.UserData, m.UserDataWO,
		m.SSHCertificateAuthorityID, m.PublicIP,
	} {
		if value.IsUnknown() {
			return false
		}
	}

	_, groups := planning.KnownStrings(m.SecurityGroupIDs)
	_, sources := planning.KnownStrings(m.AllowedSourceAddresses)
	_, volumes := planning.KnownStrings(m.VolumeIDs)
	_, tags := planning.KnownStringMap(m.Tags)

	return !groups && !sources && !volumes && !tags
}

// spec is what the configuration asks of the façade. userData is the effective user
// data: the write-only value when given (it is only ever in the configuration).
func (m *model) spec(ctx context.Context, diags *diag.Diagnostics) compute.Spec {
	spec := compute.Spec{
		Name:                      m.Name.ValueString(),
		NetworkID:                 m.NetworkID.ValueString(),
		FlavorID:                  m.FlavorID.ValueString(),
		ImageID:                   m.ImageID.ValueString(),
		UserData:                  m.UserData.ValueString(),
		SSHCertificateAuthorityID: m.SSHCertificateAuthorityID.ValueString(),
		PublicIP:                  m.PublicIP.ValueBool(),
		Description:               m.Description.ValueString(),
	}

	if !m.UserDataWO.IsNull() {
		spec.UserData = m.UserDataWO.ValueString()
	}

	diags.Append(m.SecurityGroupIDs.ElementsAs(ctx, &spec.SecurityGroupIDs, false)...)
	diags.Append(m.AllowedSourceAddresses.ElementsAs(ctx, &spec.AllowedSourceAddresses, false)...)
	diags.Append(m.VolumeIDs.ElementsAs(ctx, &spec.VolumeIDs, false)...)
	diags.Append(m.Tags.ElementsAs(ctx, &spec.Tags, false)...)

	return spec
}

// ref locates the instance of a state.
func (m *observed) ref() compute.Ref {
	return compute.Ref{
		ID:             m.ID.ValueString(),
		OrganizationID: m.OrganizationID.ValueString(),
		ProjectID:      m.ProjectID.ValueString(),
		RegionID:       m.RegionID.ValueString(),
		NetworkID:      m.NetworkID.ValueString(),
	}
}

// seen is the instance as state last saw it, for Delete: a creation time state does
// not hold in RFC 3339 is left zero, and the back end reads the instance instead.
func (m *observed) seen() *compute.Instance {
	created, _ := time.Parse(time.RFC3339, m.CreationTime.ValueString())

	return compute.Seen(m.ref(), m.FlavorID.ValueString(), created)
}

// setFrom copies what the cloud says about the instance into the model. Empty
// collections and descriptions keep their configured spelling (null or empty). User
// data is not part of it: the resource reads it back only on import (see save).
func (m *observed) setFrom(ctx context.Context, instance *compute.Instance, diags *diag.Diagnostics) {
	m.Set(ctx, instance.Spec.Name, instance.Spec.Description, instance.Spec.Tags, diags)
	m.ID = types.StringValue(instance.ID)
	m.NetworkID = types.StringValue(instance.Spec.NetworkID)
	m.FlavorID = types.StringValue(instance.Spec.FlavorID)
	m.ImageID = types.StringValue(instance.Spec.ImageID)
	m.SSHCertificateAuthorityID = family.OptionalString(instance.Spec.SSHCertificateAuthorityID)
	m.PublicIP = types.BoolValue(instance.Spec.PublicIP)
	m.Place = family.PlaceOf(instance.OrganizationID, instance.ProjectID, instance.RegionID)
	m.PrivateIP = types.StringValue(instance.PrivateIP)
	m.PublicIPAddress = family.OptionalString(instance.PublicIP)
	m.MACAddress = types.StringValue(instance.MACAddress)
	m.PowerState = types.StringValue(instance.PowerState)
	m.ProvisioningStatus = types.StringValue(instance.ProvisioningStatus)
	m.HealthStatus = types.StringValue(instance.HealthStatus)
	m.CreationTime = types.StringValue(instance.CreationTime.UTC().Format(time.RFC3339))

	m.SecurityGroupIDs = stringSet(ctx, m.SecurityGroupIDs, instance.Spec.SecurityGroupIDs, diags)
	m.AllowedSourceAddresses = stringSet(ctx, m.AllowedSourceAddresses, instance.Spec.AllowedSourceAddresses, diags)
	m.VolumeIDs = stringSet(ctx, m.VolumeIDs, instance.Spec.VolumeIDs, diags)
	m.VolumeAttachments = attachments(ctx, instance.Attachments, diags)
}

// attachments are the instance's attachments by volume ID; none is an empty map.
func attachments(ctx context.Context, rows []compute.Attachment, diags *diag.Diagnostics) types.Map {
	byVolume := map[string]attachmentModel{}
	for _, row := range rows {
		byVolume[row.VolumeID] = attachmentModel{Device: family.OptionalString(row.Device), Status: types.StringValue(row.ProvisioningStatus)}
	}

	value, d := types.MapValueFrom(ctx, attachmentType, byVolume)
	diags.Append(d...)

	return value
}

// identity returns the identity of the instance in the model.
func (m *observed) identity() identityModel {
	return identityModel{ID: m.ID, OrganizationID: m.OrganizationID, ProjectID: m.ProjectID}
}

// stringSet returns values as a set, keeping prior's null-or-empty spelling when the
// cloud reports none.
func stringSet(ctx context.Context, prior types.Set, values []string, diags *diag.Diagnostics) types.Set {
	if len(values) == 0 && !prior.IsUnknown() && (prior.IsNull() || len(prior.Elements()) == 0) {
		return prior
	}

	if len(values) == 0 {
		return types.SetNull(types.StringType)
	}

	set, d := types.SetValueFrom(ctx, types.StringType, values)
	diags.Append(d...)

	return set
}
