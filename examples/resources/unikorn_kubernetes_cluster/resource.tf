# The newest Kubernetes version the region has images of.
data "unikorn_kubernetes_versions" "region" {
  region_id    = var.region_id
  architecture = "x86_64"
}

# The smallest x86_64 flavor with at least 4 CPUs and 8 GiB.
data "unikorn_flavors" "general" {
  region_id    = var.region_id
  architecture = "x86_64"
  min_cpus     = 4
  min_memory   = 8
  gpu          = false
}

# A cluster with two workload pools. The control plane is left to the service (three
# machines it chooses, free of quota); the pools are charged to `servers`.
resource "unikorn_kubernetes_cluster" "web" {
  name      = "web"
  region_id = var.region_id
  version   = data.unikorn_kubernetes_versions.region.latest

  workload_pools = {
    # A pool of a fixed size: resized in place.
    general = {
      flavor_id = data.unikorn_flavors.general.flavors[0].id
      replicas  = 3
    }

    # An autoscaled pool, from one machine to four; the quota holds four.
    batch = {
      flavor_id     = data.unikorn_flavors.general.flavors[0].id
      replicas      = 4
      min_replicas  = 1
      disk_size_gib = 100
      labels = {
        "workload" = "batch"
      }
    }
  }

  # Only the office reaches the Kubernetes API.
  api = {
    allowed_prefixes = ["203.0.113.0/24"]
  }

  # Upgrades on Saturday nights only.
  auto_upgrade = {
    enabled = true
    days_of_week = {
      saturday = { start = 22, end = 4 }
    }
  }

  tags = {
    team = "web"
  }
}

variable "region_id" {
  type = string
}
