# The load balancers of one network that carry a tag; `terraform query
# -generate-config-out=generated.tf` writes configuration and import blocks for them.
list "unikorn_load_balancer" "web" {
  provider         = unikorn
  include_resource = true

  config {
    network_id = "c0000000-0000-4000-8000-000000000001"
    tags       = { team = "web" }
  }
}
