# Every project of the provider's organization; `terraform query -generate-config-out=generated.tf`
# writes configuration and import blocks for what it finds.
list "unikorn_project" "all" {
  provider         = unikorn
  include_resource = true
}
