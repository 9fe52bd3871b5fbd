# The organization's users; `terraform query -generate-config-out=generated.tf` writes
# configuration and import blocks for what it finds.
list "unikorn_user" "all" {
  provider         = unikorn
  include_resource = true
}
