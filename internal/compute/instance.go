// Package compute is the façade of compute instances: one Instances interface with two
// back ends, ComputeInstances over compute's public instance API, and RegionInstances,
// which realizes an Instance as a region Server linked only by a reserved tag, charging
// the organization's quota in identity on the way; besides, the catalogue and the
// snapshot images made from instances. It knows the Unikorn API and nothing about
// Terraform.
package compute

import (
	"encoding/base64"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const (
	// InstanceIDTag links a server to the instance it realizes. It is the only link:
	// compute stores no foreign key, so every operation finds the server by this tag.
	InstanceIDTag = cloud.InstanceIDTag

	// AllocationIDTag records the identity allocation charged for the instance on the
	// server itself: identity has no list endpoint, so this is how delete and import
	// find the quota to release.
	AllocationIDTag = "compute.unikorn-cloud.org/allocation-id"

	// RevisionTag carries a fresh value on every update so that a read can tell the
	// update has landed; region is cache-backed and may briefly serve the old object.
	RevisionTag = "compute.unikorn-cloud.org/revision"

	// SnapshotInstanceIDTag marks images snapshotted from an instance.
	SnapshotInstanceIDTag = cloud.SnapshotInstanceIDTag

	// AllocationKind is the consumer kind compute charges instances under.
	AllocationKind = "computeinstances.compute.unikorn-cloud.org"
)

// Quota kinds an instance consumes.
const (
	QuotaServers     = "servers"
	QuotaGPUs        = "gpus"
	QuotaFloatingIPs = "floatingips"
)

// Power states as compute shows them: region's phases collapsed to four.
const (
	PowerPending  = "Pending"
	PowerRunning  = "Running"
	PowerStopping = "Stopping"
	PowerStopped  = "Stopped"
)

// Spec is what a caller asks an instance to be.
type Spec struct {
	Name                      string
	NetworkID                 string
	FlavorID                  string
	ImageID                   string
	UserData                  string // cloud-init text, not yet encoded
	SSHCertificateAuthorityID string
	SecurityGroupIDs          []string
	PublicIP                  bool
	AllowedSourceAddresses    []string
	// VolumeIDs is the whole set of volumes attached to the instance; only the
	// compute back end attaches volumes.
	VolumeIDs   []string
	Description string
	Tags        map[string]string
}

// Instance is an instance as the façade reads it back from its server.
type Instance struct {
	ID             string
	OrganizationID string
	ProjectID      string
	RegionID       string
	// ServerID and AllocationID belong to the region back end; callers keep Handle.
	ServerID     string
	AllocationID string
	// Handle is the back end's own note for deleting the instance once it can no longer
	// be read; the caller keeps it and hands it back to Delete.
	Handle Handle

	Spec Spec

	PrivateIP  string
	PublicIP   string
	MACAddress string
	// Attachments are the volumes compute shows attached, being attached or being
	// detached, each with its device once it has one.
	Attachments        []Attachment
	PowerState         string
	ProvisioningStatus string
	HealthStatus       string
	CreationTime       time.Time
	// CreateAnswered is when this provider saw the answer to the create that made the
	// instance, on its machine's clock (cloud.Creation): zero unless Create answered
	// it, or the caller kept it from then. It lets a destroy right after an apply
	// believe a 404 without the margin the cloud's whole-second creation time needs.
	CreateAnswered time.Time

	// revision is the region back end's mark of the last update that reached the
	// server (see RevisionTag).
	revision string
}

// Ready reports whether the instance is usable: provisioned and running.
func (i *Instance) Ready() bool {
	return i.ProvisioningStatus == unikorn.ProvisioningProvisioned && i.PowerState == PowerRunning
}

// Deleting reports whether the cloud has accepted a delete of the instance and not
// finished it (see cloud.Deleting): its server, or compute's instance, reports
// deprovisioning from the moment its deletionTime is set until it is gone.
func (i *Instance) Deleting() bool {
	return cloud.Deleting(&unikorn.ReadMetadata{ProvisioningStatus: i.ProvisioningStatus})
}

// realized reports whether the cloud has carried out the instance's spec: it is
// provisioned and has a public address exactly when it asks for one. The answer to an
// update, and a cache that caught the server just after it, still say provisioned
// from before the update, with the old addresses: the address is what tells them
// apart when the update toggles it.
func (i *Instance) realized() bool {
	return i.ProvisioningStatus == unikorn.ProvisioningProvisioned && (i.PublicIP != "") == i.Spec.PublicIP
}

// Ref locates an instance. Only ID is required; every other field narrows the tag
// query that finds its server, and a Read from state knows them all.
type Ref struct {
	ID             string
	OrganizationID string
	ProjectID      string
	RegionID       string
	NetworkID      string
}

// Seen is an instance as a caller last read it and kept it: its reference and, where
// known, its flavor and creation time (zero values where not).
func Seen(ref Ref, flavorID string, creationTime time.Time) *Instance {
	return &Instance{
		ID: ref.ID, OrganizationID: ref.OrganizationID, ProjectID: ref.ProjectID, RegionID: ref.RegionID,
		CreationTime: creationTime,
		Spec:         Spec{NetworkID: ref.NetworkID, FlavorID: flavorID},
	}
}

// creation is what is known of when the instance came to be.
func (i *Instance) creation() cloud.Creation {
	return cloud.Creation{Time: i.CreationTime, Answered: i.CreateAnswered}
}

// Ref returns the fully scoped reference of an instance.
func (i *Instance) Ref() Ref {
	return Ref{
		ID:             i.ID,
		OrganizationID: i.OrganizationID,
		ProjectID:      i.ProjectID,
		RegionID:       i.RegionID,
		NetworkID:      i.Spec.NetworkID,
	}
}

// instanceFromServer projects a server onto the instance it realizes.
func instanceFromServer(server *unikorn.Server) *Instance {
	instance := &Instance{
		OrganizationID:     server.Metadata.OrganizationID,
		ProjectID:          server.Metadata.ProjectID,
		RegionID:           server.Status.RegionID,
		ServerID:           server.Metadata.ID,
		PrivateIP:          server.Status.PrivateIP,
		PublicIP:           server.Status.PublicIP,
		MACAddress:         server.Status.MACAddress,
		PowerState:         collapsePowerState(server.Status.PowerState),
		ProvisioningStatus: server.Metadata.ProvisioningStatus,
		HealthStatus:       server.Metadata.HealthStatus,
		CreationTime:       server.Metadata.CreationTime,
		Spec: Spec{
			Name:                      server.Metadata.Name,
			NetworkID:                 server.Status.NetworkID,
			FlavorID:                  server.Spec.FlavorID,
			ImageID:                   server.Spec.ImageID,
			UserData:                  decodeUserData(server.Spec.UserData),
			SSHCertificateAuthorityID: server.Status.SSHCertificateAuthorityID,
			Description:               server.Metadata.Description,
			Tags:                      cloud.UserTags(server.Metadata.Tags),
		},
	}

	setNetworking(&instance.Spec, server.Spec.Networking)

	instance.ID, _ = server.Metadata.Tags.Get(InstanceIDTag)
	instance.AllocationID, _ = server.Metadata.Tags.Get(AllocationIDTag)
	instance.Handle = Handle(instance.AllocationID)
	instance.revision, _ = server.Metadata.Tags.Get(RevisionTag)

	return instance
}

// collapsePowerState maps region's phases onto compute's: anything that is not yet
// running, stopping or stopped (Pending, Queued, Building, unknown) reads as Pending.
func collapsePowerState(phase string) string {
	switch phase {
	case unikorn.PowerRunning, unikorn.PowerStopping, unikorn.PowerStopped:
		return phase
	default:
		return PowerPending
	}
}

// serverTags returns the user's tags in a stable order followed by the reserved ones.
func serverTags(user map[string]string, reserved ...unikorn.Tag) unikorn.Tags {
	return append(cloud.TagsOf(user).Wire(), reserved...)
}

func serverNetworking(spec Spec) *unikorn.ServerNetworking {
	if len(spec.SecurityGroupIDs) == 0 && !spec.PublicIP && len(spec.AllowedSourceAddresses) == 0 {
		return nil
	}

	return &unikorn.ServerNetworking{
		SecurityGroups:         slices.Sorted(slices.Values(spec.SecurityGroupIDs)),
		PublicIP:               spec.PublicIP,
		AllowedSourceAddresses: slices.Sorted(slices.Values(spec.AllowedSourceAddresses)),
	}
}

func encodeUserData(text string) string {
	if text == "" {
		return ""
	}

	return base64.StdEncoding.EncodeToString([]byte(text))
}

// decodeUserData returns the text of base64 user data, or the data unchanged when it
// is not base64 (which region would not have accepted; better shown than dropped).
func decodeUserData(encoded string) string {
	decoded, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return encoded
	}

	return string(decoded)
}
