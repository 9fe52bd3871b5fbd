# The standard NFSv4 class of the region.
data "unikorn_file_storage_classes" "nfs" {
  region_id = var.region_id
  protocol  = "nfsv4"
  name      = "sim-nfs-standard"
}

# A network whose reservations leave room for storage: a /25 reserved, of which the
# provider keeps the first /28, leaves .16 to .127 for file storage.
resource "unikorn_network" "web" {
  name      = "web"
  region_id = var.region_id
  prefix    = "10.0.0.0/24"

  reservations = {
    prefix_length                   = 25
    provider_reserved_prefix_length = 28
  }
}

# 100 GiB shared by the instances on the web network, snapshotted every night.
resource "unikorn_file_storage" "shared" {
  name             = "shared"
  region_id        = var.region_id
  storage_class_id = data.unikorn_file_storage_classes.nfs.classes[0].id

  # Grown in place; a smaller size is refused unless the storage is replaced.
  size_gib    = 100
  attachments = [unikorn_network.web.id]

  snapshot_policies = {
    nightly = {
      interval    = "daily"
      time_of_day = "02:30Z"
      keep        = 7
    }
  }

  tags = {
    team = "web"
  }
}

# What an instance on the web network mounts, e.g. from its user data:
#   mount -t nfs <mount_source> /srv/shared
output "mount_source" {
  value = unikorn_file_storage.shared.mounts[unikorn_network.web.id].mount_source
}

variable "region_id" {
  type = string
}
