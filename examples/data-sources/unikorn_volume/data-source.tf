# A volume made outside this configuration, by name on a network.
data "unikorn_volume" "archive" {
  name       = "archive"
  network_id = var.network_id
}

output "archive_size_gib" {
  value = data.unikorn_volume.archive.size_gib
}

variable "network_id" {
  type = string
}
