# By name, in the provider's project.
data "unikorn_kubernetes_cluster" "web" {
  name = "web"
}

# By ID, in the provider's organization.
data "unikorn_kubernetes_cluster" "by_id" {
  id = var.cluster_id
}

output "pool_sizes" {
  value = { for name, pool in data.unikorn_kubernetes_cluster.web.workload_pools : name => pool.replicas }
}

variable "cluster_id" {
  type = string
}
