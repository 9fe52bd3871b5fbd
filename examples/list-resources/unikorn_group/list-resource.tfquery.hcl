# The organization's groups of one name; `terraform query -generate-config-out=generated.tf`
# writes configuration and import blocks for what it finds.
list "unikorn_group" "team" {
  provider         = unikorn
  include_resource = true

  config {
    name = "team"
  }
}
