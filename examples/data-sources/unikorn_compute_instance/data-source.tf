# By ID.
data "unikorn_compute_instance" "by_id" {
  id = var.instance_id
}

# By network and name: an instance's name is unique on its network.
data "unikorn_compute_instance" "web" {
  network_id = var.network_id
  name       = "web-1"
}

output "web_private_ip" {
  value = data.unikorn_compute_instance.web.private_ip
}

variable "instance_id" {
  type = string
}

variable "network_id" {
  type = string
}
