package storage

// Descriptions of file storage's attributes, shared by the resource, the data source
// and the list resource, so that each is described once.
const (
	TypeName = "unikorn_file_storage"

	descriptionStorage = "File storage: an NFS share in a region that instances mount from the networks it is " +
		"attached to. Its size counts against the organization's `filestorage` quota (in bytes)."

	descriptionID             = "ID of the file storage."
	descriptionName           = "Name of the file storage. Region does not require names to be unique."
	descriptionDescription    = "Description of the file storage."
	descriptionTags           = "Tags of the file storage, by name."
	descriptionOrganizationID = "Organization of the file storage."
	descriptionProjectID      = "Project of the file storage; only networks of this project can be attached."
	descriptionRegionID       = "Region the file storage is in."
	descriptionClassID        = "Storage class the file storage is made of, as listed by the `unikorn_file_storage_classes` " +
		"data source; it must be a class of `region_id`."
	descriptionSizeGiB    = "Size of the share in GiB (2³⁰ bytes)."
	descriptionRootSquash = "Whether the share maps the root user of the instances that mount it to an " +
		"unprivileged one, as NFS `root_squash` does."
	descriptionAttachments = "IDs of the networks the share is exported to, each of the storage's project and with a " +
		"storage range: addresses its `reservations` leave beside the provider's part. Instances on an attached " +
		"network mount the share from `mounts[<network ID>].mount_source`."
	descriptionPolicies = "Snapshot policies by name (a DNS label of at most 19 characters, not `system-default`), " +
		"at most four. Region keeps them, with no IDs, as part of the storage."
	descriptionPolicyInterval   = "How often a snapshot is taken: `hourly`, `daily`, `weekly` or `monthly`."
	descriptionPolicyTimeOfDay  = "UTC time of the snapshot as `HH:MMZ`, e.g. `02:30Z`; required by daily, weekly and monthly policies, refused by hourly ones."
	descriptionPolicyDayOfWeek  = "Day of a weekly policy's snapshot: `monday` to `sunday`; only for weekly policies."
	descriptionPolicyDayOfMonth = "Day of a monthly policy's snapshot, 1 to 28; only for monthly policies."
	descriptionPolicyKeep       = "How many of the policy's snapshots are kept; at least 1."
	descriptionProtection       = "Whether the platform's default snapshot protection (a daily snapshot at 04:00 UTC, " +
		"seven kept) is on. Region turns it on for new storage unless told otherwise."
	descriptionPolicyStatus = "Provisioning status of each snapshot policy, by name, as the storage back end reports " +
		"it: `pending` until it has seen the policy."
	descriptionMounts = "How instances mount the share, by attached network ID. A network being detached is shown " +
		"until it is gone. A network that stays attached keeps its mount source known in the plan of an update, so " +
		"that what is built on it (an instance's user data) does not change."
	descriptionMountSource  = "What to mount, `<address>:<path>`, e.g. in `mount -t nfs <mount_source> /mnt/shared`."
	descriptionMountOptions = "NFS options for the mount, such as `remoteports` (the range of the storage's " +
		"addresses on the network, for multipath NFS); null until the storage back end reports them."
	descriptionMountStatus = "Provisioning status of the export to the network, as the storage back end reports it."
	descriptionUsage       = "What the storage back end last reported of the share; null until it has reported. " +
		"It changes as data is written, and never causes a plan to change anything."
	descriptionCapacity  = "Size of the share in bytes."
	descriptionUsed      = "Bytes in use on the share."
	descriptionUpdatedAt = "When the use was measured (RFC 3339)."
)
