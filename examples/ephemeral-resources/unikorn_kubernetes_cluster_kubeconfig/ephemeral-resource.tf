# Read in every run, never written to the plan or the state.
ephemeral "unikorn_kubernetes_cluster_kubeconfig" "web" {
  cluster_id = var.cluster_id
}

# The kubernetes provider takes its parts (the helm provider's `kubernetes` takes the same).
provider "kubernetes" {
  host                   = ephemeral.unikorn_kubernetes_cluster_kubeconfig.web.host
  cluster_ca_certificate = ephemeral.unikorn_kubernetes_cluster_kubeconfig.web.cluster_ca_certificate
  client_certificate     = ephemeral.unikorn_kubernetes_cluster_kubeconfig.web.client_certificate
  client_key             = ephemeral.unikorn_kubernetes_cluster_kubeconfig.web.client_key
}

variable "cluster_id" {
  type = string
}
