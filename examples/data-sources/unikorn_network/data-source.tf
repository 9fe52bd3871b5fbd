# By name, in the provider's project.
data "unikorn_network" "default" {
  name = "default"
}

# By ID, wherever it is.
data "unikorn_network" "by_id" {
  id = var.network_id
}

# By name, in another project.
data "unikorn_network" "shared" {
  name       = "shared"
  project_id = var.shared_project_id
}

output "default_network_prefix" {
  value = data.unikorn_network.default.prefix
}

variable "network_id" {
  type = string
}

variable "shared_project_id" {
  type = string
}
