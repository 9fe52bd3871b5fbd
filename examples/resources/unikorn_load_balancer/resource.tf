data "unikorn_network" "default" {
  name = "default"
}

# Two web servers on the network, behind the load balancer.
resource "unikorn_compute_instance" "web" {
  count = 2

  name       = "web-${count.index}"
  network_id = data.unikorn_network.default.id
  flavor_id  = var.flavor_id
  image_id   = var.image_id
}

resource "unikorn_load_balancer" "web" {
  name       = "web"
  network_id = data.unikorn_network.default.id

  # A public address in front of the VIP; turning it off keeps the VIP.
  public_ip_enabled = true

  listeners = {
    # Region knows a listener by its name: to change its protocol, port or PROXY
    # protocol, rename it.
    https = {
      protocol      = "tcp"
      port          = 443
      allowed_cidrs = ["0.0.0.0/0"]
      members = [for instance in unikorn_compute_instance.web : {
        address = instance.private_ip
        port    = 8443
      }]

      # Fields left out take region's defaults (10, 5, 2 and 2).
      health_check = {
        interval_seconds = 15
      }
    }

    dns = {
      protocol = "udp"
      port     = 53
      members  = [for instance in unikorn_compute_instance.web : { address = instance.private_ip, port = 53 }]
    }
  }

  tags = {
    team = "web"
  }
}

output "address" {
  value = unikorn_load_balancer.web.public_ip
}

variable "flavor_id" {
  type = string
}

variable "image_id" {
  type = string
}
