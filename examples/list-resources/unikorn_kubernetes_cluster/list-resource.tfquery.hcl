# The clusters of one project; `terraform query -generate-config-out=generated.tf`
# writes configuration and import blocks for what it finds.
list "unikorn_kubernetes_cluster" "project" {
  provider         = unikorn
  include_resource = true

  config {
    project_id = "a0000000-0000-4000-8000-000000000002"
  }
}
