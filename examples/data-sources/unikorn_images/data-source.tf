# Ubuntu 24.04 images for x86_64 that are ready to boot (the default status).
data "unikorn_images" "ubuntu" {
  region_id    = var.region_id
  architecture = "x86_64"
  os_distro    = "ubuntu"
  os_version   = "24.04"
}

# Every snapshot of one instance, including those still being created.
data "unikorn_images" "snapshots" {
  region_id   = var.region_id
  instance_id = var.instance_id
  status      = ["pending", "creating", "ready"]
}

output "ubuntu_image_id" {
  value = data.unikorn_images.ubuntu.images[0].id
}

variable "region_id" {
  type = string
}

variable "instance_id" {
  type = string
}
