package unikorn

import "time"

// The wire types below follow the region v1.17.4, identity v1.17.7 and core v1.17.1
// OpenAPI documents. Optional fields are pointers or omitempty so that what we send
// is exactly what the contract allows, and what we receive round-trips unchanged.

// Tag is a free-form name/value pair (core `tag`).
type Tag struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Tags is an ordered tag list (core `tagList`).
type Tags []Tag

// Get returns the value of the named tag and whether it is present.
func (t Tags) Get(name string) (string, bool) {
	for _, tag := range t {
		if tag.Name == name {
			return tag.Value, true
		}
	}

	return "", false
}

// WriteMetadata is core `resourceWriteMetadata`.
type WriteMetadata struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Tags        Tags   `json:"tags,omitempty"`
}

// StaticMetadata is core `staticResourceMetadata`.
type StaticMetadata struct {
	WriteMetadata

	ID           string     `json:"id"`
	CreationTime time.Time  `json:"creationTime"`
	CreatedBy    string     `json:"createdBy,omitempty"`
	ModifiedTime *time.Time `json:"modifiedTime,omitempty"`
	ModifiedBy   string     `json:"modifiedBy,omitempty"`
}

// Provisioning statuses (core `resourceProvisioningStatus`).
const (
	ProvisioningUnknown        = "unknown"
	ProvisioningPending        = "pending"
	ProvisioningProvisioning   = "provisioning"
	ProvisioningProvisioned    = "provisioned"
	ProvisioningDeprovisioning = "deprovisioning"
	ProvisioningError          = "error"
)

// Health statuses (core `resourceHealthStatus`).
const (
	HealthUnknown  = "unknown"
	HealthHealthy  = "healthy"
	HealthDegraded = "degraded"
	HealthError    = "error"
)

// ReadMetadata is core `resourceReadMetadata`.
type ReadMetadata struct {
	StaticMetadata

	DeletionTime       *time.Time `json:"deletionTime,omitempty"`
	ProvisioningStatus string     `json:"provisioningStatus"`
	HealthStatus       string     `json:"healthStatus"`
}

// OrganizationScopedMetadata is core `organizationScopedResourceReadMetadata`.
type OrganizationScopedMetadata struct {
	ReadMetadata

	OrganizationID string `json:"organizationId"`
}

// ProjectScopedMetadata is core `projectScopedResourceReadMetadata`.
type ProjectScopedMetadata struct {
	OrganizationScopedMetadata

	ProjectID string `json:"projectId"`
}

// ErrorBody is core `error`, the body of every non-2xx response.
type ErrorBody struct {
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
	TraceID          string `json:"trace_id,omitempty"`
}

// Error codes of core `error`.
const (
	ErrorInvalidRequest        = "invalid_request"
	ErrorServerError           = "server_error"
	ErrorAccessDenied          = "access_denied"
	ErrorNotFound              = "not_found"
	ErrorConflict              = "conflict"
	ErrorMethodNotAllowed      = "method_not_allowed"
	ErrorUnsupportedMediaType  = "unsupported_media_type"
	ErrorRequestEntityTooLarge = "request_entity_too_large"
	ErrorUnprocessableContent  = "unprocessable_content"
	ErrorForbidden             = "forbidden"
)

// ---- Region: regions, flavors, images ----

// Region is region `regionRead`.
type Region struct {
	Metadata ReadMetadata `json:"metadata"`
	Spec     RegionSpec   `json:"spec"`
}

// RegionSpec is region `regionSpec`.
type RegionSpec struct {
	Type     string         `json:"type"`
	Features RegionFeatures `json:"features"`
}

// RegionFeatures is region `regionFeatures`.
type RegionFeatures struct {
	PhysicalNetworks bool `json:"physicalNetworks"`
}

// CPU architectures.
const (
	ArchitectureX86_64  = "x86_64"
	ArchitectureAarch64 = "aarch64"
)

// Flavor is region `flavor`.
type Flavor struct {
	Metadata StaticMetadata `json:"metadata"`
	Spec     FlavorSpec     `json:"spec"`
}

// FlavorSpec is region `flavorSpec`. Memory is in GiB, Disk in GB.
type FlavorSpec struct {
	Baremetal    bool     `json:"baremetal,omitempty"`
	CPUs         int      `json:"cpus"`
	CPUFamily    string   `json:"cpuFamily,omitempty"`
	Memory       int      `json:"memory"`
	Disk         int      `json:"disk"`
	Architecture string   `json:"architecture"`
	GPU          *GPUSpec `json:"gpu,omitempty"`
	PinnedOnly   bool     `json:"pinnedOnly,omitempty"`
}

// GPUSpec is region `gpuSpec`.
type GPUSpec struct {
	Vendor        string `json:"vendor"`
	Model         string `json:"model"`
	Memory        int    `json:"memory"`
	PhysicalCount int    `json:"physicalCount"`
	LogicalCount  int    `json:"logicalCount"`
}

// GPUCount is the number of physical GPUs a flavor carries (what quota counts).
func (f *Flavor) GPUCount() int {
	if f.Spec.GPU == nil {
		return 0
	}

	return f.Spec.GPU.PhysicalCount
}

// Image virtualization kinds (region `imageVirtualization`).
const (
	VirtualizationVirtualized = "virtualized"
	VirtualizationBaremetal   = "baremetal"
	VirtualizationAny         = "any"
)

// Image states (region `imageState`).
const (
	ImagePending  = "pending"
	ImageCreating = "creating"
	ImageReady    = "ready"
	ImageFailed   = "failed"
)

// Image is region `image`.
type Image struct {
	Metadata StaticMetadata `json:"metadata"`
	Spec     ImageSpec      `json:"spec"`
	Status   ImageStatus    `json:"status"`
}

// ImageSpec is region `imageSpec`.
type ImageSpec struct {
	Architecture     string            `json:"architecture"`
	SizeGiB          int               `json:"sizeGiB"`
	Virtualization   string            `json:"virtualization"`
	OS               ImageOS           `json:"os"`
	SoftwareVersions map[string]string `json:"softwareVersions,omitempty"`
	GPU              *ImageGPU         `json:"gpu,omitempty"`
}

// ImageOS is region `imageOS`.
type ImageOS struct {
	Kernel   string `json:"kernel"`
	Family   string `json:"family"`
	Distro   string `json:"distro"`
	Variant  string `json:"variant,omitempty"`
	Codename string `json:"codename,omitempty"`
	Version  string `json:"version"`
}

// ImageGPU is region `imageGpu`.
type ImageGPU struct {
	Vendor string   `json:"vendor"`
	Driver string   `json:"driver"`
	Models []string `json:"models,omitempty"`
}

// ImageStatus is region `imageStatus`.
type ImageStatus struct {
	State string `json:"state"`
}

// ImageQuery filters the v2 image list (`GET /api/v2/regions/{regionID}/images`).
type ImageQuery struct {
	OrganizationIDs []string
	// Scope is "owned" or "available" (the default when empty).
	Scope  string
	Status []string
}

// ImageCreate is region `imageCreate`: an image imported from the URI of a raw disk image.
type ImageCreate struct {
	Metadata WriteMetadata   `json:"metadata"`
	Spec     ImageCreateSpec `json:"spec"`
}

// ImageCreateSpec is region `imageCreateSpec`.
type ImageCreateSpec struct {
	URI              string            `json:"uri"`
	Architecture     string            `json:"architecture"`
	Virtualization   string            `json:"virtualization"`
	OS               ImageOS           `json:"os"`
	SoftwareVersions map[string]string `json:"softwareVersions,omitempty"`
	GPU              *ImageGPU         `json:"gpu,omitempty"`
}

// ImageSpec is the description the imported image carries; its size is the cloud's
// to tell once the image is imported.
func (s ImageCreateSpec) ImageSpec() ImageSpec {
	return ImageSpec{
		Architecture:     s.Architecture,
		Virtualization:   s.Virtualization,
		OS:               s.OS,
		SoftwareVersions: s.SoftwareVersions,
		GPU:              s.GPU,
	}
}

// SnapshotCreate is region `snapshotCreate`; its spec is required but empty.
type SnapshotCreate struct {
	Metadata WriteMetadata      `json:"metadata"`
	Spec     SnapshotCreateSpec `json:"spec"`
}

// SnapshotCreateSpec is region `snapshotCreateSpec`.
type SnapshotCreateSpec struct{}

// ---- Region: networks, security groups, SSH certificate authorities ----

// Network is region `networkV2Read`.
type Network struct {
	Metadata ProjectScopedMetadata `json:"metadata"`
	Spec     NetworkSpec           `json:"spec"`
	Status   NetworkStatus         `json:"status"`
}

// NetworkSpec is region `networkV2Spec`.
type NetworkSpec struct {
	DNSNameservers []string `json:"dnsNameservers"`
	Routes         []Route  `json:"routes,omitempty"`
}

// Route is region `route`.
type Route struct {
	Prefix  string `json:"prefix"`
	Nexthop string `json:"nexthop"`
}

// NetworkStatus is region `networkV2Status`.
type NetworkStatus struct {
	RegionID     string               `json:"regionId"`
	Prefix       string               `json:"prefix"`
	Reservations *NetworkReservations `json:"reservations,omitempty"`
}

// NetworkReservations is region `networkReservations`.
type NetworkReservations struct {
	PrefixLength                 int  `json:"prefixLength"`
	ProviderReservedPrefixLength *int `json:"providerReservedPrefixLength,omitempty"`
}

// NetworkCreate is region `networkV2Create`.
type NetworkCreate struct {
	Metadata WriteMetadata     `json:"metadata"`
	Spec     NetworkCreateSpec `json:"spec"`
}

// NetworkCreateSpec is region `networkV2CreateSpec`.
type NetworkCreateSpec struct {
	NetworkSpec

	OrganizationID string               `json:"organizationId"`
	ProjectID      string               `json:"projectId"`
	RegionID       string               `json:"regionId"`
	Prefix         string               `json:"prefix"`
	Reservations   *NetworkReservations `json:"reservations,omitempty"`
}

// NetworkUpdate is region `networkV2Update`.
type NetworkUpdate struct {
	Metadata WriteMetadata `json:"metadata"`
	Spec     NetworkSpec   `json:"spec"`
}

// SecurityGroup is region `securityGroupV2Read`.
type SecurityGroup struct {
	Metadata ProjectScopedMetadata `json:"metadata"`
	Spec     SecurityGroupSpec     `json:"spec"`
	Status   SecurityGroupStatus   `json:"status"`
}

// SecurityGroupSpec is region `securityGroupV2Spec`.
type SecurityGroupSpec struct {
	Rules []SecurityGroupRule `json:"rules"`
}

// SecurityGroupRule is region `securityGroupRuleV2`.
type SecurityGroupRule struct {
	Direction string `json:"direction"`
	Protocol  string `json:"protocol"`
	Port      *int   `json:"port,omitempty"`
	PortMax   *int   `json:"portMax,omitempty"`
	Prefix    string `json:"prefix,omitempty"`
}

// SecurityGroupStatus is region `securityGroupV2Status`.
type SecurityGroupStatus struct {
	RegionID  string `json:"regionId"`
	NetworkID string `json:"networkId"`
}

// SecurityGroupCreate is region `securityGroupV2Create`.
type SecurityGroupCreate struct {
	Metadata WriteMetadata           `json:"metadata"`
	Spec     SecurityGroupCreateSpec `json:"spec"`
}

// SecurityGroupCreateSpec is region `securityGroupV2CreateSpec`.
type SecurityGroupCreateSpec struct {
	SecurityGroupSpec

	NetworkID string `json:"networkId"`
}

// SecurityGroupUpdate is region `securityGroupV2Update`.
type SecurityGroupUpdate struct {
	Metadata WriteMetadata     `json:"metadata"`
	Spec     SecurityGroupSpec `json:"spec"`
}

// SSHCertificateAuthority is region `sshCertificateAuthorityV2Read`.
type SSHCertificateAuthority struct {
	Metadata ProjectScopedMetadata       `json:"metadata"`
	Spec     SSHCertificateAuthoritySpec `json:"spec"`
}

// SSHCertificateAuthoritySpec is region `sshCertificateAuthorityV2Spec`.
type SSHCertificateAuthoritySpec struct {
	PublicKey string `json:"publicKey"`
}

// SSHCertificateAuthorityCreate is region `sshCertificateAuthorityV2Create`.
type SSHCertificateAuthorityCreate struct {
	Metadata WriteMetadata                     `json:"metadata"`
	Spec     SSHCertificateAuthorityCreateSpec `json:"spec"`
}

// SSHCertificateAuthorityCreateSpec is region `sshCertificateAuthorityV2CreateSpec`.
type SSHCertificateAuthorityCreateSpec struct {
	SSHCertificateAuthoritySpec

	OrganizationID string `json:"organizationId"`
	ProjectID      string `json:"projectId"`
}

// ---- Region: servers v2 ----

// Server power states (region `instanceLifecyclePhase`).
const (
	PowerPending  = "Pending"
	PowerQueued   = "Queued"
	PowerBuilding = "Building"
	PowerRunning  = "Running"
	PowerStopping = "Stopping"
	PowerStopped  = "Stopped"
)

// Server is region `serverV2Read`.
type Server struct {
	Metadata ProjectScopedMetadata `json:"metadata"`
	Spec     ServerSpec            `json:"spec"`
	Status   ServerStatus          `json:"status"`
}

// ServerSpec is region `serverV2Spec`. UserData is base64 text as it travels.
// Volumes, newer than every region document published, are the volumes the server
// asks region to attach (region's server of the v1.25 line): compute sends its
// instance's set there; the provider's own servers attach none.
type ServerSpec struct {
	FlavorID   string            `json:"flavorId"`
	ImageID    string            `json:"imageId"`
	Networking *ServerNetworking `json:"networking,omitempty"`
	UserData   string            `json:"userData,omitempty"`
	Volumes    []ServerVolume    `json:"volumes,omitempty"`
}

// ServerVolume is a volume a server asks for (region `serverVolumeSpec`, v1.25 line).
type ServerVolume struct {
	ID string `json:"id"`
}

// ServerVolumeStatus is a server's attachment of a volume as region reports it
// (`serverVolumeStatus`, v1.25 line): the same as compute's row, which compute copies
// from it.
type ServerVolumeStatus = InstanceVolumeStatus

// ServerNetworking is region `serverV2Networking`.
type ServerNetworking struct {
	SecurityGroups         []string `json:"securityGroups,omitempty"`
	PublicIP               bool     `json:"publicIP,omitempty"`
	AllowedSourceAddresses []string `json:"allowedSourceAddresses,omitempty"`
}

// ServerStatus is region `serverV2Status`.
type ServerStatus struct {
	RegionID                  string `json:"regionId"`
	NetworkID                 string `json:"networkId"`
	SSHCertificateAuthorityID string `json:"sshCertificateAuthorityId,omitempty"`
	InfrastructureRef         string `json:"infrastructureRef,omitempty"`
	PowerState                string `json:"powerState,omitempty"`
	PrivateIP                 string `json:"privateIP,omitempty"`
	PublicIP                  string `json:"publicIP,omitempty"`
	MACAddress                string `json:"macAddress,omitempty"`
	// Volumes are the attachments region reports (v1.25 line, as Spec.Volumes).
	Volumes []ServerVolumeStatus `json:"volumes,omitempty"`
}

// ServerCreate is region `serverV2Create`.
type ServerCreate struct {
	Metadata WriteMetadata    `json:"metadata"`
	Spec     ServerCreateSpec `json:"spec"`
}

// ServerCreateSpec is region `serverV2CreateSpec`.
type ServerCreateSpec struct {
	ServerSpec

	NetworkID                 string `json:"networkId"`
	SSHCertificateAuthorityID string `json:"sshCertificateAuthorityId,omitempty"`
	InfrastructureRef         string `json:"infrastructureRef,omitempty"`
}

// ServerUpdate is region `serverV2Update`.
type ServerUpdate struct {
	Metadata WriteMetadata `json:"metadata"`
	Spec     ServerSpec    `json:"spec"`
}

// ServerQuery filters `GET /api/v2/servers`. Every field is repeatable: OR within a
// field, AND across fields; Tags are AND-ed `name=value` selectors.
type ServerQuery struct {
	Tags            Tags
	OrganizationIDs []string
	ProjectIDs      []string
	RegionIDs       []string
	NetworkIDs      []string
}

// SSHKey is region `sshKey`.
type SSHKey struct {
	PrivateKey string `json:"privateKey"`
}

// ConsoleSession is region `consoleSession`.
type ConsoleSession struct {
	URL string `json:"url"`
}

// ConsoleOutput is region `consoleOutput`.
type ConsoleOutput struct {
	Contents string `json:"contents"`
}

// ---- Compute ----

// Instance is compute `instanceRead`.
type Instance struct {
	Metadata ProjectScopedMetadata `json:"metadata"`
	Spec     InstanceSpec          `json:"spec"`
	Status   InstanceStatus        `json:"status"`
}

// InstanceSpec is compute `instanceSpec`. Unlike a server's, it carries the SSH
// certificate authority, which may therefore change after create. UserData is base64
// text as it travels. Volumes is the whole set of volumes attached to the instance
// (compute `instanceVolumeList`, of the compute that attaches volumes): in an update,
// nil keeps the set, an empty list detaches every volume; a read leaves it out when
// there are none.
type InstanceSpec struct {
	FlavorID                  string            `json:"flavorId"`
	ImageID                   string            `json:"imageId"`
	Networking                *ServerNetworking `json:"networking,omitempty"`
	Volumes                   *[]string         `json:"volumes,omitempty"`
	SSHCertificateAuthorityID string            `json:"sshCertificateAuthorityId,omitempty"`
	UserData                  string            `json:"userData,omitempty"`
}

// InstanceStatus is compute `instanceStatus`.
type InstanceStatus struct {
	RegionID   string                 `json:"regionId"`
	NetworkID  string                 `json:"networkId"`
	PowerState string                 `json:"powerState,omitempty"`
	PrivateIP  string                 `json:"privateIP,omitempty"`
	PublicIP   string                 `json:"publicIP,omitempty"`
	MACAddress string                 `json:"macAddress,omitempty"`
	Volumes    []InstanceVolumeStatus `json:"volumes,omitempty"`
}

// InstanceCreate is compute `instanceCreate`.
type InstanceCreate struct {
	Metadata WriteMetadata      `json:"metadata"`
	Spec     InstanceCreateSpec `json:"spec"`
}

// InstanceCreateSpec is compute `instanceCreateSpec`.
type InstanceCreateSpec struct {
	InstanceSpec

	OrganizationID string `json:"organizationId"`
	ProjectID      string `json:"projectId"`
	NetworkID      string `json:"networkId"`
}

// InstanceUpdate is compute `instanceUpdate`.
type InstanceUpdate struct {
	Metadata WriteMetadata `json:"metadata"`
	Spec     InstanceSpec  `json:"spec"`
}

// InstanceSnapshotCreate is compute `instanceSnapshotCreate`: unlike region's
// snapshot request it has no spec.
type InstanceSnapshotCreate struct {
	Metadata WriteMetadata `json:"metadata"`
}

// InstanceQuery filters `GET /api/v2/instances` as ServerQuery filters servers.
type InstanceQuery ServerQuery

// ServiceVersion is compute `serviceVersionRead`.
type ServiceVersion struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// ---- Identity ----

// Organization is identity `organizationRead`.
type Organization struct {
	Metadata ReadMetadata     `json:"metadata"`
	Spec     OrganizationSpec `json:"spec"`
}

// OrganizationSpec is identity `organizationSpec`.
type OrganizationSpec struct {
	OrganizationType string `json:"organizationType"`
	Domain           string `json:"domain,omitempty"`
	ProviderScope    string `json:"providerScope,omitempty"`
	ProviderID       string `json:"providerID,omitempty"`
	GoogleCustomerID string `json:"googleCustomerID,omitempty"`
}

// Project is identity `projectRead`.
type Project struct {
	Metadata OrganizationScopedMetadata `json:"metadata"`
	Spec     ProjectSpec                `json:"spec"`
}

// ProjectSpec is identity `projectSpec`.
type ProjectSpec struct {
	GroupIDs []string `json:"groupIDs"`
}

// ProjectWrite is identity `projectWrite`.
type ProjectWrite struct {
	Metadata WriteMetadata `json:"metadata"`
	Spec     ProjectSpec   `json:"spec"`
}

// Group is identity `groupRead`.
type Group struct {
	Metadata OrganizationScopedMetadata `json:"metadata"`
	Spec     GroupSpec                  `json:"spec"`
}

// User is identity `userRead`: a person's membership of an organization. Its
// metadata's name means nothing (identity sets it to "undefined"); the subject names
// the user.
type User struct {
	Metadata OrganizationScopedMetadata `json:"metadata"`
	Spec     UserSpec                   `json:"spec"`
	Status   UserStatus                 `json:"status"`
}

// UserWrite is identity `userWrite`.
type UserWrite struct {
	Metadata *WriteMetadata `json:"metadata,omitempty"`
	Spec     UserSpec       `json:"spec"`
}

// UserSpec is identity `userSpec`. The groups are kept on the groups: identity adds the
// user to those named and takes it out of the others.
type UserSpec struct {
	Subject  string   `json:"subject"`
	State    string   `json:"state"`
	GroupIDs []string `json:"groupIDs"`
}

// UserStatus is identity `userStatus`.
type UserStatus struct {
	LastActive *time.Time `json:"lastActive,omitempty"`
}

// User states (identity `userState`).
const (
	UserActive    = "active"
	UserPending   = "pending"
	UserSuspended = "suspended"
)

// GroupWrite is identity `groupWrite`.
type GroupWrite struct {
	Metadata WriteMetadata `json:"metadata"`
	Spec     GroupSpec     `json:"spec"`
}

// GroupSpec is identity `groupSpec`. UserIDs and Subjects are two forms of one
// membership: identity derives each from the other and refuses both at once.
type GroupSpec struct {
	RoleIDs           []string  `json:"roleIDs"`
	ServiceAccountIDs []string  `json:"serviceAccountIDs"`
	UserIDs           []string  `json:"userIDs,omitempty"`
	Subjects          []Subject `json:"subjects,omitempty"`
}

// Subject is identity `subject`: a user as its issuer names it.
type Subject struct {
	ID     string `json:"id"`
	Email  string `json:"email,omitempty"`
	Issuer string `json:"issuer"`
}

// ServiceAccount is identity `serviceAccountRead`, and `serviceAccountCreate` when
// Status.AccessToken is set: only a create or a rotation answers it, once.
type ServiceAccount struct {
	Metadata OrganizationScopedMetadata `json:"metadata"`
	Spec     ServiceAccountSpec         `json:"spec"`
	Status   ServiceAccountStatus       `json:"status"`
}

// ServiceAccountWrite is identity `serviceAccountWrite`.
type ServiceAccountWrite struct {
	Metadata WriteMetadata      `json:"metadata"`
	Spec     ServiceAccountSpec `json:"spec"`
}

// ServiceAccountSpec is identity `serviceAccountSpec`. The groups are derived from
// the groups' own service account lists.
type ServiceAccountSpec struct {
	GroupIDs []string `json:"groupIDs"`
}

// ServiceAccountStatus is identity `serviceAccountStatus`.
type ServiceAccountStatus struct {
	Expiry      time.Time `json:"expiry"`
	AccessToken string    `json:"accessToken,omitempty"`
}

// Role is identity `roleRead`.
type Role struct {
	Metadata ReadMetadata `json:"metadata"`
}

// Quotas is identity `quotasRead`.
type Quotas struct {
	Quotas []Quota `json:"quotas"`
}

// Quota is identity `quotaRead`.
type Quota struct {
	Kind        string `json:"kind"`
	Quantity    int    `json:"quantity"`
	Used        int    `json:"used"`
	Free        int    `json:"free"`
	Committed   int    `json:"committed"`
	Reserved    int    `json:"reserved"`
	DisplayName string `json:"displayName"`
	Description string `json:"description"`
	Default     int    `json:"default"`
}

// QuotasWrite is identity `quotasWrite`.
type QuotasWrite struct {
	Quotas []QuotaWrite `json:"quotas"`
}

// QuotaWrite is identity `quotaWrite`.
type QuotaWrite struct {
	Kind     string `json:"kind"`
	Quantity int    `json:"quantity"`
}

// Allocation is identity `allocationRead`.
type Allocation struct {
	Metadata ProjectScopedMetadata `json:"metadata"`
	Spec     AllocationSpec        `json:"spec"`
}

// AllocationWrite is identity `allocationWrite`.
type AllocationWrite struct {
	Metadata WriteMetadata  `json:"metadata"`
	Spec     AllocationSpec `json:"spec"`
}

// AllocationSpec is identity `allocationSpec`.
type AllocationSpec struct {
	Kind        string               `json:"kind"`
	ID          string               `json:"id"`
	Allocations []ResourceAllocation `json:"allocations"`
}

// ResourceAllocation is identity `resourceAllocation`.
type ResourceAllocation struct {
	Kind      string `json:"kind"`
	Committed int    `json:"committed"`
	Reserved  int    `json:"reserved"`
}

// NetworkQuery filters `GET /api/v2/networks` (same semantics as ServerQuery).
type NetworkQuery struct {
	Tags            Tags
	OrganizationIDs []string
	ProjectIDs      []string
	RegionIDs       []string
}

// SecurityGroupQuery filters `GET /api/v2/securitygroups`.
type SecurityGroupQuery struct {
	Tags            Tags
	OrganizationIDs []string
	ProjectIDs      []string
	RegionIDs       []string
	NetworkIDs      []string
}

// SSHCertificateAuthorityQuery filters `GET /api/v2/sshcertificateauthorities`.
type SSHCertificateAuthorityQuery struct {
	Tags            Tags
	OrganizationIDs []string
	ProjectIDs      []string
}
