# By name, in the provider's project, on one network.
data "unikorn_load_balancer" "web" {
  name       = "web"
  network_id = var.network_id
}

# By ID, wherever it is.
data "unikorn_load_balancer" "by_id" {
  id = var.load_balancer_id
}

output "web_vip" {
  value = data.unikorn_load_balancer.web.vip_address
}

variable "network_id" {
  type = string
}

variable "load_balancer_id" {
  type = string
}
