# Find what the instance is made of by name rather than by ID.
data "unikorn_network" "default" {
  name = "default"
}

data "unikorn_flavors" "standard" {
  region_id    = data.unikorn_network.default.region_id
  architecture = "x86_64"
  min_cpus     = 4
  min_memory   = 8
  gpu          = false
}

data "unikorn_images" "ubuntu" {
  region_id    = data.unikorn_network.default.region_id
  architecture = "x86_64"
  os_distro    = "ubuntu"
  os_version   = "24.04"
}

data "unikorn_security_group" "web" {
  name       = "allow-web"
  network_id = data.unikorn_network.default.id
}

resource "unikorn_compute_instance" "web" {
  name       = "web-1"
  network_id = data.unikorn_network.default.id
  flavor_id  = data.unikorn_flavors.standard.flavors[0].id
  image_id   = data.unikorn_images.ubuntu.images[0].id

  # Changing these updates the instance in place.
  description        = "Public web server"
  security_group_ids = [data.unikorn_security_group.web.id]
  public_ip          = true
  tags = {
    team = "web"
  }

  # Applied at first boot only: changing it replaces the instance.
  user_data = <<-EOT
    #cloud-config
    packages:
      - nginx
  EOT

  timeouts = {
    create = "45m"
  }
}

output "web_public_address" {
  value = unikorn_compute_instance.web.public_ip_address
}
