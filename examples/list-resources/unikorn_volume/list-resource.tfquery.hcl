# The volumes on one network; `terraform query -generate-config-out=generated.tf`
# writes configuration and import blocks for what it finds.
list "unikorn_volume" "network" {
  provider         = unikorn
  include_resource = true

  config {
    network_id = "a0000000-0000-4000-8000-000000000003"
  }
}
