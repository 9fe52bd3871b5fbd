# The smallest x86_64 flavor with at least 4 CPUs and 8 GiB: flavors come smallest first.
data "unikorn_flavors" "general" {
  region_id    = var.region_id
  architecture = "x86_64"
  min_cpus     = 4
  min_memory   = 8
  gpu          = false
}

# Every flavor with an NVIDIA GPU.
data "unikorn_flavors" "nvidia" {
  region_id  = var.region_id
  gpu_vendor = "NVIDIA"
}

output "general_flavor_id" {
  value = data.unikorn_flavors.general.flavors[0].id
}

variable "region_id" {
  type = string
}
