package unikorn

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// The file storage types follow region v1.20.0 (`storageV2*`, `storageClassV2*`), the
// first published document that has snapshot policies.

// Storage class protocols (region `storageClassProtocolType`).
const (
	StorageProtocolNFSv3 = "nfsv3"
	StorageProtocolNFSv4 = "nfsv4"
)

// Snapshot policy intervals (region `storageSnapshotScheduleIntervalV2`).
const (
	SnapshotHourly  = "hourly"
	SnapshotDaily   = "daily"
	SnapshotWeekly  = "weekly"
	SnapshotMonthly = "monthly"
)

// FileStorage is region `storageV2Read`.
type FileStorage struct {
	Metadata ProjectScopedMetadata `json:"metadata"`
	Spec     FileStorageSpec       `json:"spec"`
	Status   FileStorageStatus     `json:"status"`
}

// FileStorageSpec is region `storageV2Spec`. On an update region regenerates the spec
// from the request: Attachments nil detaches every network and a StorageType without
// NFS turns root squash on, while SnapshotPolicies nil and
// DefaultSnapshotProtectionEnabled nil keep what the storage has (and an empty list of
// policies clears them). The pointers say which is meant.
type FileStorageSpec struct {
	SizeGiB                          int64                    `json:"sizeGiB"`
	StorageType                      StorageType              `json:"storageType"`
	Attachments                      *StorageAttachments      `json:"attachments,omitempty"`
	DefaultSnapshotProtectionEnabled *bool                    `json:"defaultSnapshotProtectionEnabled,omitempty"`
	SnapshotPolicies                 *[]StorageSnapshotPolicy `json:"snapshotPolicies,omitempty"`
}

// StorageType is region `storageTypeV2Spec`. The document's examples write
// `{"nfs": {"rootsquash": …}}`, but its schema names the members `NFS` and
// `rootSquash`, and those are what is sent.
type StorageType struct {
	NFS *NFSStorage `json:"NFS,omitempty"`
}

// NFSStorage is region `NFSV2Spec`.
type NFSStorage struct {
	RootSquash bool `json:"rootSquash"`
}

// StorageAttachments is region `storageAttachmentV2Spec`: the networks the storage is
// exported to. NetworkIDs must not be nil when sent: an empty list detaches all.
type StorageAttachments struct {
	NetworkIDs []string `json:"networkIds"`
}

// StorageSnapshotPolicy is region `storageSnapshotPolicyV2Spec`.
type StorageSnapshotPolicy struct {
	Name      string                  `json:"name"`
	Schedule  StorageSnapshotSchedule `json:"schedule"`
	Retention StorageRetention        `json:"retention"`
}

// StorageSnapshotSchedule is region `storageSnapshotScheduleV2Spec`.
type StorageSnapshotSchedule struct {
	Interval   string `json:"interval"`
	TimeOfDay  string `json:"timeOfDay,omitempty"`
	DayOfWeek  string `json:"dayOfWeek,omitempty"`
	DayOfMonth *int   `json:"dayOfMonth,omitempty"`
}

// StorageRetention is region `storageSnapshotRetentionV2Spec`.
type StorageRetention struct {
	Keep int `json:"keep"`
}

// FileStorageStatus is region `storageV2Status`.
type FileStorageStatus struct {
	StorageClassID   string                        `json:"storageClassId"`
	RegionID         string                        `json:"regionId"`
	Usage            *StorageUsage                 `json:"usage,omitempty"`
	Attachments      []StorageAttachmentStatus     `json:"attachments,omitempty"`
	SnapshotPolicies []StorageSnapshotPolicyStatus `json:"snapshotPolicies"`
}

// StorageUsage is region `storageUsageV2Status`.
type StorageUsage struct {
	CapacityBytes int64      `json:"capacityBytes"`
	UsedBytes     *int64     `json:"usedBytes,omitempty"`
	UpdatedAt     *time.Time `json:"updatedAt,omitempty"`
}

// StorageAttachmentStatus is region `storageAttachmentV2Status`. MountSource is
// `<host>:<path>`; MountOptions carries NFS options such as `remoteports`.
type StorageAttachmentStatus struct {
	NetworkID          string            `json:"networkId"`
	ProvisioningStatus string            `json:"provisioningStatus"`
	MountSource        string            `json:"mountSource,omitempty"`
	MountOptions       map[string]string `json:"mountOptions,omitempty"`
}

// StorageSnapshotPolicyStatus is region `storageSnapshotPolicyV2Status`.
type StorageSnapshotPolicyStatus struct {
	Name               string `json:"name"`
	ProvisioningStatus string `json:"provisioningStatus"`
	Message            string `json:"message,omitempty"`
}

// FileStorageCreate is region `storageV2Create`.
type FileStorageCreate struct {
	Metadata WriteMetadata         `json:"metadata"`
	Spec     FileStorageCreateSpec `json:"spec"`
}

// FileStorageCreateSpec is the spec of region `storageV2Create`: where the storage
// lives and of which class, which never change, and its `storageV2Spec`.
type FileStorageCreateSpec struct {
	FileStorageSpec

	OrganizationID string `json:"organizationId"`
	ProjectID      string `json:"projectId"`
	RegionID       string `json:"regionId"`
	StorageClassID string `json:"storageClassId"`
}

// FileStorageUpdate is region `storageV2Update`.
type FileStorageUpdate struct {
	Metadata WriteMetadata   `json:"metadata"`
	Spec     FileStorageSpec `json:"spec"`
}

// StorageClass is region `storageClassV2Read`; it belongs to no organization.
type StorageClass struct {
	Metadata ReadMetadata     `json:"metadata"`
	Spec     StorageClassSpec `json:"spec"`
}

// StorageClassSpec is region `storageClassV2Spec`. Parallelism is how many addresses
// of a network's storage range an attachment uses, at most.
type StorageClassSpec struct {
	RegionID    string   `json:"regionId"`
	Protocols   []string `json:"protocols"`
	Parallelism int      `json:"parallelism"`
}

// FileStorageQuery filters `GET /api/v2/filestorage`, which has no network filter.
type FileStorageQuery struct {
	Tags            Tags
	OrganizationIDs []string
	ProjectIDs      []string
	RegionIDs       []string
}

func (q FileStorageQuery) values() url.Values {
	return scopeFilter{Tags: q.Tags, OrganizationIDs: q.OrganizationIDs, ProjectIDs: q.ProjectIDs, RegionIDs: q.RegionIDs}.values()
}

// ListFileStorage lists the file storage matching q.
func (c *Client) ListFileStorage(ctx context.Context, q FileStorageQuery) ([]FileStorage, error) {
	return callList[FileStorage](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/filestorage").withQuery(q.values()))
}

// CreateFileStorage creates file storage and charges its size to the `filestorage`
// quota; it answers while the storage is still pending.
func (c *Client) CreateFileStorage(ctx context.Context, create FileStorageCreate) (*FileStorage, error) {
	return callObject[FileStorage](ctx, c, c.op(services.Region, http.MethodPost, http.StatusCreated, "/api/v2/filestorage").withBody(create))
}

// GetFileStorage returns file storage.
func (c *Client) GetFileStorage(ctx context.Context, id string) (*FileStorage, error) {
	return callObject[FileStorage](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/filestorage/%s", id))
}

// UpdateFileStorage regenerates the spec of file storage from update (see
// FileStorageSpec for what an omitted member means) and resizes its quota charge.
func (c *Client) UpdateFileStorage(ctx context.Context, id string, update FileStorageUpdate) (*FileStorage, error) {
	return callObject[FileStorage](ctx, c, c.op(services.Region, http.MethodPut, http.StatusAccepted, "/api/v2/filestorage/%s", id).withBody(update))
}

// DeleteFileStorage starts deleting file storage.
func (c *Client) DeleteFileStorage(ctx context.Context, id string) error {
	return call(ctx, c, c.op(services.Region, http.MethodDelete, http.StatusAccepted, "/api/v2/filestorage/%s", id))
}

// ListStorageClasses lists the storage classes the token may use, of the given
// regions or of all when none is given.
func (c *Client) ListStorageClasses(ctx context.Context, regionIDs ...string) ([]StorageClass, error) {
	return callList[StorageClass](ctx, c, c.op(services.Region, http.MethodGet, http.StatusOK, "/api/v2/filestorageclasses").withQuery(inRegions(regionIDs)))
}
