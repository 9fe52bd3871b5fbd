data "unikorn_network" "default" {
  name = "default"
}

data "unikorn_flavors" "standard" {
  region_id    = data.unikorn_network.default.region_id
  architecture = "x86_64"
  min_cpus     = 4
  gpu          = false
}

# An SSD class of the network's region that takes 200 GiB and whose volumes the
# flavor's instances can attach.
data "unikorn_volume_classes" "ssd" {
  region_id = data.unikorn_network.default.region_id
  media     = "ssd"
  size_gib  = 200
  flavor_id = data.unikorn_flavors.standard.flavors[0].id
}

resource "unikorn_volume" "data" {
  name            = "database-data"
  network_id      = data.unikorn_network.default.id
  volume_class_id = data.unikorn_volume_classes.ssd.classes[0].id

  # Fixed when the volume is made: changing the size or the class makes a new,
  # empty volume, and the plan warns that the data is lost.
  size_gib = 200

  # Changed in place.
  description = "Persistent database storage"
  tags = {
    team = "data"
  }
}

# The instance attaches the volume (instance_api = "compute"); when the instance is
# replaced, the volume is attached to the replacement in the same apply.
resource "unikorn_compute_instance" "database" {
  name       = "database"
  network_id = data.unikorn_network.default.id
  flavor_id  = data.unikorn_flavors.standard.flavors[0].id
  image_id   = var.image_id
  volume_ids = [unikorn_volume.data.id]
}

output "device" {
  value = unikorn_compute_instance.database.volume_attachments[unikorn_volume.data.id].device
}

variable "image_id" {
  type = string
}
