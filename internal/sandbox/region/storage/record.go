package storage

import (
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// record is file storage as region stores it: what was asked for, and
// what the storage back end has so far reported back. Reads render it (see render),
// so that a stale copy served under read lag renders as that moment did.
type record struct {
	Metadata          unikorn.ProjectScopedMetadata `json:"metadata"`
	RegionID          string                        `json:"regionId"`
	StorageClassID    string                        `json:"storageClassId"`
	SizeGiB           int64                         `json:"sizeGiB"`
	RootSquash        bool                          `json:"rootSquash"`
	DefaultProtection bool                          `json:"defaultProtection"`
	Policies          []policyState                 `json:"policies,omitempty"`
	// Attachments are in the order asked for, followed by those being detached.
	Attachments []attachmentState `json:"attachments,omitempty"`
	// MountPath is the share's export path, known once the back end has made it.
	MountPath string `json:"mountPath,omitempty"`
	// CapacityBytes, UsedBytes and UsageTime are what the back end last reported;
	// nothing is reported before the share is made.
	CapacityBytes *int64        `json:"capacityBytes,omitempty"`
	UsedBytes     int64         `json:"usedBytes"`
	UsageTime     *time.Time    `json:"usageTime,omitempty"`
	Lifecycle     core.Schedule `json:"lifecycle,omitempty"`
	// AllocationID is the identity allocation that charges the size to the quota.
	AllocationID string `json:"allocationId"`
}

// policyState is a user's snapshot policy and what the back end has observed of it.
type policyState struct {
	Policy    unikorn.StorageSnapshotPolicy `json:"policy"`
	Status    string                        `json:"status"`
	Lifecycle core.Schedule                 `json:"lifecycle,omitempty"`
}

// attachmentState is the export of the share to one network: the addresses of the
// network's storage range it uses, and what the back end has observed of it. Status
// is empty until the back end has seen the attachment.
type attachmentState struct {
	NetworkID string `json:"networkId"`
	Range     Range  `json:"range"`
	Status    string `json:"status,omitempty"`
	// Detaching marks an attachment no longer asked for whose removal the back end has
	// not finished: it keeps its network in use, and its row shows deprovisioning.
	Detaching bool          `json:"detaching,omitempty"`
	Lifecycle core.Schedule `json:"lifecycle,omitempty"`
}

// attachSchedule is the path of a new attachment: the back end sees it after the
// share itself has settled (an attach made with the create comes after the share is
// made), reports its mount then (MountDelay), and finishes half a delay later.
func attachSchedule(now time.Time, delay time.Duration) core.Schedule {
	return core.Schedule{
		{To: unikorn.ProvisioningProvisioning, Due: now.Add(MountDelay(delay))},
		{To: unikorn.ProvisioningProvisioned, Due: now.Add(delay * 2)},
	}
}

// MountDelay is how long after an attachment is asked for, with a provisioning time
// of delay, the sandbox's storage reports the network's mount source: half a delay
// after the share itself settles.
func MountDelay(delay time.Duration) time.Duration {
	return delay * 3 / 2
}

// render is region `storageV2Read` of the record. The spec's lists are always
// present, possibly empty, as region's conversion writes them; status rows follow the
// attachments and policies asked for, pending until the back end has observed them.
func (r *record) render() unikorn.FileStorage {
	networkIDs := []string{}
	policies := []unikorn.StorageSnapshotPolicy{}
	policyStatus := []unikorn.StorageSnapshotPolicyStatus{}

	var attached, detaching []unikorn.StorageAttachmentStatus

	for _, a := range r.Attachments {
		if a.Detaching {
			detaching = append(detaching, unikorn.StorageAttachmentStatus{NetworkID: a.NetworkID, ProvisioningStatus: unikorn.ProvisioningDeprovisioning})

			continue
		}

		networkIDs = append(networkIDs, a.NetworkID)
		row := unikorn.StorageAttachmentStatus{NetworkID: a.NetworkID, ProvisioningStatus: unikorn.ProvisioningPending}

		if a.Status != "" {
			row.ProvisioningStatus = a.Status
			row.MountOptions = map[string]string{"remoteports": a.Range.RemotePorts()}

			if r.MountPath != "" {
				row.MountSource = a.Range.MountSource(r.MountPath)
			}
		}

		attached = append(attached, row)
	}

	for _, p := range r.Policies {
		policies = append(policies, p.Policy)

		status := p.Status
		if status == "" {
			status = unikorn.ProvisioningPending
		}

		policyStatus = append(policyStatus, unikorn.StorageSnapshotPolicyStatus{Name: p.Policy.Name, ProvisioningStatus: status})
	}

	protection := r.DefaultProtection

	read := unikorn.FileStorage{
		Metadata: r.Metadata,
		Spec: unikorn.FileStorageSpec{
			SizeGiB:                          r.SizeGiB,
			StorageType:                      unikorn.StorageType{NFS: &unikorn.NFSStorage{RootSquash: r.RootSquash}},
			Attachments:                      &unikorn.StorageAttachments{NetworkIDs: networkIDs},
			DefaultSnapshotProtectionEnabled: &protection,
			SnapshotPolicies:                 &policies,
		},
		Status: unikorn.FileStorageStatus{
			StorageClassID:   r.StorageClassID,
			RegionID:         r.RegionID,
			Attachments:      append(attached, detaching...),
			SnapshotPolicies: policyStatus,
		},
	}

	if r.CapacityBytes != nil {
		used := r.UsedBytes
		read.Status.Usage = &unikorn.StorageUsage{CapacityBytes: *r.CapacityBytes, UsedBytes: &used, UpdatedAt: r.UsageTime}
	}

	return read
}

// advance applies the file storage transitions due by now and reports
// whether anything changed. Storage that has finished deprovisioning is gone, and
// region's finalizer releases its quota.
func advance(st *core.Store, now time.Time) bool {
	changed := false

	records := fileStorage.Records(st)

	for id, r := range records {
		for _, to := range r.Lifecycle.Due(now) {
			changed = true

			if to == unikorn.ProvisioningProvisioned {
				r.settle(now)
			}

			if core.ApplyProvisioning(&r.Metadata.ReadMetadata, to) {
				core.Allocations.Delete(st, r.AllocationID)
				delete(records, id)
			}
		}

		if r.advanceParts(now) {
			changed = true
		}
	}

	return changed
}

// settle is the back end reporting the share as made at its current size.
func (r *record) settle(now time.Time) {
	if r.MountPath == "" {
		r.MountPath = "/volumes/_nogroup/" + r.Metadata.ID
	}

	capacity := SizeBytes(r.SizeGiB)
	reported := now.UTC().Truncate(time.Second)
	r.CapacityBytes, r.UsageTime = &capacity, &reported
}

// advanceParts applies the due transitions of attachments and policies.
func (r *record) advanceParts(now time.Time) bool {
	changed := false
	kept := r.Attachments[:0]

	for _, a := range r.Attachments {
		gone := false

		for _, to := range a.Lifecycle.Due(now) {
			changed = true

			if to == core.ToGone {
				gone = true
			} else {
				a.Status = to
			}
		}

		if !gone {
			kept = append(kept, a)
		}
	}

	r.Attachments = kept

	for i := range r.Policies {
		for _, to := range r.Policies[i].Lifecycle.Due(now) {
			changed = true
			r.Policies[i].Status = to
		}
	}

	return changed
}
