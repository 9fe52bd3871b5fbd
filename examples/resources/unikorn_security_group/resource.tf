# HTTPS from anywhere and SSH from one range; rules change in place.
resource "unikorn_security_group" "web" {
  name       = "web"
  network_id = unikorn_network.web.id

  rules = [
    { direction = "ingress", protocol = "tcp", port = 443 },
    { direction = "ingress", protocol = "tcp", port = 22, prefix = "192.0.2.0/24" },
    { direction = "ingress", protocol = "udp", port = 60000, port_max = 61000 },
  ]
}

resource "unikorn_network" "web" {
  name      = "web"
  region_id = var.region_id
  prefix    = "10.0.0.0/24"
}

variable "region_id" {
  type = string
}
