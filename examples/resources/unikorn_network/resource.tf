# A network in the provider's organization and project.
resource "unikorn_network" "web" {
  name      = "web"
  region_id = var.region_id
  prefix    = "10.0.0.0/24"

  # Changed in place; a new region or prefix replaces the network.
  dns_nameservers = ["192.0.2.53", "192.0.2.54"]

  tags = {
    team = "web"
  }
}

variable "region_id" {
  type = string
}
