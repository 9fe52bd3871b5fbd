package storage

import (
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// FileStorage is file storage as region has it.
type FileStorage struct {
	Metadata cloud.ProjectMetadata
	RegionID string
	ClassID  string
	SizeGiB  int64
	// RootSquash is on for storage whose type region shows without NFS, as region
	// reads it.
	RootSquash bool
	// NetworkIDs are the networks its spec exports it to.
	NetworkIDs []string
	// DefaultProtection is nil while region shows none.
	DefaultProtection *bool
	// SnapshotPolicies are the user's policies, and PolicyStatuses how far region has
	// come with each of them, and with its own.
	SnapshotPolicies []SnapshotPolicy
	PolicyStatuses   []PolicyStatus
	// Attachments are the exports to networks region has made or is making or
	// removing.
	Attachments []Attachment
	// Usage is nil until the back end reports it.
	Usage *Usage
}

// SnapshotPolicy is when snapshots of file storage are taken, and how many are kept.
type SnapshotPolicy struct {
	Name     string
	Schedule SnapshotSchedule
	Keep     int
}

// SnapshotSchedule is when a policy takes snapshots; what each interval needs of the
// rest is ValidateSchedule's.
type SnapshotSchedule struct {
	Interval   string
	TimeOfDay  string
	DayOfWeek  string
	DayOfMonth *int
}

// PolicyStatus is the provisioning status of a snapshot policy, by its name.
type PolicyStatus struct {
	Name               string
	ProvisioningStatus string
}

// Attachment is file storage's export to a network: the NFS source to mount, once
// there is one, and its options.
type Attachment struct {
	NetworkID          string
	ProvisioningStatus string
	MountSource        string
	MountOptions       map[string]string
}

// Usage is what the back end reports of file storage's capacity and use.
type Usage struct {
	CapacityBytes int64
	UsedBytes     *int64
	UpdatedAt     *time.Time
}

// Class is a storage class: of which region, over which protocols, and how many
// addresses of a network's storage range an attachment uses at most.
type Class struct {
	ID          string
	Name        string
	RegionID    string
	Protocols   []string
	Parallelism int
}

// fromWire is region's file storage in the façade's terms.
func fromWire(in *unikorn.FileStorage) *FileStorage {
	spec := in.Spec

	out := &FileStorage{
		Metadata:          cloud.ProjectMetadataOf(&in.Metadata),
		RegionID:          in.Status.RegionID,
		ClassID:           in.Status.StorageClassID,
		SizeGiB:           spec.SizeGiB,
		RootSquash:        spec.StorageType.NFS == nil || spec.StorageType.NFS.RootSquash,
		DefaultProtection: spec.DefaultSnapshotProtectionEnabled,
	}

	if spec.Attachments != nil {
		out.NetworkIDs = slices.Clone(spec.Attachments.NetworkIDs)
	}

	if spec.SnapshotPolicies != nil {
		for _, policy := range *spec.SnapshotPolicies {
			out.SnapshotPolicies = append(out.SnapshotPolicies, SnapshotPolicy{
				Name: policy.Name, Schedule: SnapshotSchedule(policy.Schedule), Keep: policy.Retention.Keep,
			})
		}
	}

	for _, status := range in.Status.SnapshotPolicies {
		out.PolicyStatuses = append(out.PolicyStatuses, PolicyStatus{Name: status.Name, ProvisioningStatus: status.ProvisioningStatus})
	}

	for _, attachment := range in.Status.Attachments {
		out.Attachments = append(out.Attachments, Attachment(attachment))
	}

	if in.Status.Usage != nil {
		usage := Usage(*in.Status.Usage)
		out.Usage = &usage
	}

	return out
}

// policiesWire is snapshot policies as region takes them; nil stays nil, which
// region reads as "keep".
func policiesWire(policies *[]SnapshotPolicy) *[]unikorn.StorageSnapshotPolicy {
	if policies == nil {
		return nil
	}

	out := make([]unikorn.StorageSnapshotPolicy, 0, len(*policies))
	for _, policy := range *policies {
		out = append(out, unikorn.StorageSnapshotPolicy{
			Name: policy.Name, Schedule: unikorn.StorageSnapshotSchedule(policy.Schedule),
			Retention: unikorn.StorageRetention{Keep: policy.Keep},
		})
	}

	return &out
}

// classFromWire is region's storage class in the façade's terms.
func classFromWire(in *unikorn.StorageClass) *Class {
	return &Class{
		ID: in.Metadata.ID, Name: in.Metadata.Name, RegionID: in.Spec.RegionID,
		Protocols: slices.Clone(in.Spec.Protocols), Parallelism: in.Spec.Parallelism,
	}
}
