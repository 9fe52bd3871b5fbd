# What `make demo` applies against a throwaway sandbox: it reads the catalogue a
# Unikorn organization sees, builds a small web tier (a network, a security group,
# two instances behind a public load balancer, and file storage they share), and
# prints what it made. The provider block is empty because the
# sandbox prints the UNIKORN_* variables the provider falls back to.

terraform {
  required_version = ">= 1.14"

  required_providers {
    unikorn = {
      source = "unikorn-cloud/unikorn"
    }
  }
}

provider "unikorn" {}

data "unikorn_regions" "all" {}

locals {
  region = data.unikorn_regions.all.regions[0]
}

variable "flavor" {
  description = "Name of the instance's flavor; the demo plans a change of it to show a replacement."
  type        = string
  default     = "sim-standard-4"
}

data "unikorn_flavors" "all" {
  region_id = local.region.id
}

# The smallest flavor with a GPU: the API lists flavors smallest first.
data "unikorn_flavors" "gpu" {
  region_id = local.region.id
  gpu       = true
}

data "unikorn_images" "all" {
  region_id = local.region.id
}

# An Ubuntu image for x86_64, the kind an instance would boot.
data "unikorn_images" "ubuntu" {
  region_id    = local.region.id
  os_distro    = "ubuntu"
  architecture = "x86_64"
}

output "regions" {
  description = "Every region of the organization."
  value       = { for r in data.unikorn_regions.all.regions : r.name => "${r.type}, ${r.id}" }
}

output "flavors" {
  description = "Every flavor of the first region."
  value = {
    for f in data.unikorn_flavors.all.flavors : f.name => join(", ", compact([
      "${f.cpus} CPU",
      "${f.memory} GiB",
      "${f.disk} GB disk",
      f.architecture,
      f.baremetal ? "bare metal" : "",
      f.gpu != null ? "${f.gpu.count}x ${f.gpu.vendor} ${f.gpu.model} ${f.gpu.memory} GiB" : "",
    ]))
  }
}

output "images" {
  description = "Every ready image of the first region."
  value = {
    for i in data.unikorn_images.all.images : i.name => join(", ", compact([
      "${i.os.distro} ${i.os.version}",
      i.architecture,
      "${i.size_gib} GiB",
      i.virtualization,
      i.gpu != null ? "${i.gpu.vendor} driver ${i.gpu.driver}" : "",
    ]))
  }
}

output "smallest_gpu_flavor" {
  value = try(data.unikorn_flavors.gpu.flavors[0].name, "none")
}

output "ubuntu_x86_64_images" {
  value = [for i in data.unikorn_images.ubuntu.images : i.name]
}

# The project starts empty: the demo makes its own network and security group. The
# reservations leave room on the network for file storage to be mounted from.
resource "unikorn_network" "demo" {
  name            = "demo"
  region_id       = local.region.id
  prefix          = "10.50.0.0/24"
  dns_nameservers = ["192.0.2.53"]

  reservations = {
    prefix_length                   = 25
    provider_reserved_prefix_length = 28
  }
}

resource "unikorn_security_group" "web" {
  name       = "demo-web"
  network_id = unikorn_network.demo.id

  rules = [
    { direction = "ingress", protocol = "tcp", port = 22 },
    { direction = "ingress", protocol = "tcp", port = 80 },
  ]
}

# Storage the web servers share, mounted over NFS from the network.
data "unikorn_file_storage_classes" "nfs" {
  region_id = local.region.id
  protocol  = "nfsv4"
}

resource "unikorn_file_storage" "shared" {
  name             = "demo-shared"
  region_id        = local.region.id
  storage_class_id = data.unikorn_file_storage_classes.nfs.classes[0].id
  size_gib         = 10
  attachments      = [unikorn_network.demo.id]
}

locals {
  mount = unikorn_file_storage.shared.mounts[unikorn_network.demo.id]
}

resource "unikorn_compute_instance" "web" {
  count = 2

  name               = "demo-web-${count.index}"
  network_id         = unikorn_network.demo.id
  flavor_id          = one([for f in data.unikorn_flavors.all.flavors : f.id if f.name == var.flavor])
  image_id           = data.unikorn_images.ubuntu.images[0].id
  security_group_ids = [unikorn_security_group.web.id]

  user_data = <<-CLOUD_CONFIG
    #cloud-config
    packages: [nginx, nfs-common]
    mounts:
      - ["${local.mount.mount_source}", /var/www/html, nfs, "vers=4"]
  CLOUD_CONFIG

  tags = {
    app = "demo"
  }
}

# The public address users reach; the instances have none of their own.
resource "unikorn_load_balancer" "web" {
  name              = "demo-web"
  network_id        = unikorn_network.demo.id
  public_ip_enabled = true

  listeners = {
    http = {
      protocol     = "tcp"
      port         = 80
      members      = [for instance in unikorn_compute_instance.web : { address = instance.private_ip, port = 80 }]
      health_check = {}
    }
  }
}

output "load_balancer" {
  description = "Where the web tier answers: the load balancer's public address and its VIP on the network."
  value = {
    public_ip   = unikorn_load_balancer.web.public_ip
    vip_address = unikorn_load_balancer.web.vip_address
  }
}

output "mount_source" {
  description = "What the instances mount the shared storage from."
  value       = local.mount.mount_source
}

output "instances" {
  description = "The web servers as the cloud reports them."
  value = {
    for instance in unikorn_compute_instance.web : instance.name => {
      id          = instance.id
      private_ip  = instance.private_ip
      power_state = instance.power_state
      status      = "${instance.provisioning_status}, ${instance.health_status}"
    }
  }
}
