resource "unikorn_compute_instance" "web" {
  name       = "web"
  network_id = var.network_id
  flavor_id  = var.flavor_id
  image_id   = var.image_id
}

# Snapshot the instance once it is first created; invoke it again by hand with
#   terraform apply -invoke=action.unikorn_compute_instance_snapshot.golden
action "unikorn_compute_instance_snapshot" "golden" {
  config {
    instance_id = unikorn_compute_instance.web.id
    name        = "web-golden"
    tags = {
      release = var.release
    }
  }
}

resource "terraform_data" "golden" {
  input = var.release

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.unikorn_compute_instance_snapshot.golden]
    }
  }
}

# Later, every snapshot of the instance; boot new instances from them.
data "unikorn_images" "golden" {
  region_id   = unikorn_compute_instance.web.region_id
  instance_id = unikorn_compute_instance.web.id
}

variable "release" {
  type = string
}

variable "network_id" {
  type = string
}

variable "flavor_id" {
  type = string
}

variable "image_id" {
  type = string
}
