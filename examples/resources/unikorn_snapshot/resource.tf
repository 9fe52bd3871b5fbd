# An image of an instance's disk, deleted when this resource is destroyed.
resource "unikorn_snapshot" "golden" {
  instance_id = var.instance_id
  name        = "web-golden"
  tags = {
    role = "web"
  }
}

# An instance booted from the snapshot. It depends on the image, so Terraform
# destroys it first: region does not delete an image an instance still uses.
resource "unikorn_compute_instance" "restored" {
  name       = "web-restored"
  network_id = var.network_id
  flavor_id  = var.flavor_id
  image_id   = unikorn_snapshot.golden.id
}

variable "instance_id" {
  description = "The instance to snapshot, e.g. unikorn_compute_instance.web.id."
  type        = string
}

variable "network_id" {
  description = "The network of the restored instance."
  type        = string
}

variable "flavor_id" {
  description = "The flavor of the restored instance; its disk must hold the image."
  type        = string
}
