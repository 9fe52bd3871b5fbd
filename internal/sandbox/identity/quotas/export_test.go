package quotas

// FileStorageQuota is identity's default `filestorage` quota, in bytes.
const FileStorageQuota = fileStorageQuota

// Kinds are the quota kinds identity knows.
var Kinds = kinds
