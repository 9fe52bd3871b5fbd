# By name, in the provider's project.
data "unikorn_file_storage" "shared" {
  name = "shared"
}

# By ID, wherever it is.
data "unikorn_file_storage" "by_id" {
  id = var.file_storage_id
}

output "shared_mounts" {
  value = { for network_id, mount in data.unikorn_file_storage.shared.mounts : network_id => mount.mount_source }
}

variable "file_storage_id" {
  type = string
}
