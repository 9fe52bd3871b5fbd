# An image brought from the URL of a raw disk image, deleted when this resource is
# destroyed. Terraform waits until region has imported it.
resource "unikorn_image" "ubuntu" {
  name           = "ubuntu-24.04-hardened"
  region_id      = var.region_id
  uri            = "https://images.example.com/ubuntu-24.04-hardened.raw"
  architecture   = "x86_64"
  virtualization = "virtualized"

  os = {
    kernel   = "linux"
    family   = "debian"
    distro   = "ubuntu"
    version  = "24.04"
    codename = "noble"
  }

  tags = {
    team = "platform"
  }
}

# An instance booted from the image. It depends on the image, so Terraform destroys it
# first: region does not delete an image an instance still uses.
resource "unikorn_compute_instance" "web" {
  name       = "web"
  network_id = var.network_id
  flavor_id  = var.flavor_id
  image_id   = unikorn_image.ubuntu.id
}

variable "region_id" {
  description = "The region to import the image into, that of the network."
  type        = string
}

variable "network_id" {
  description = "The network of the instance."
  type        = string
}

variable "flavor_id" {
  description = "The flavor of the instance; its disk must hold the image (size_gib)."
  type        = string
}
