# The Kubernetes versions a region offers clusters of x86_64 machines, newest first.
data "unikorn_kubernetes_versions" "region" {
  region_id    = var.region_id
  architecture = "x86_64"
}

output "latest" {
  value = data.unikorn_kubernetes_versions.region.latest
}

variable "region_id" {
  type = string
}
