package quotas

// FileStorageQuota is identity's default `filestorage` quota, in bytes.
const FileStorageQuota = fileStorageQuota
