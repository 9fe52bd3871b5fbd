import {
  to = unikorn_kubernetes_cluster.web
  identity = {
    organization_id = "a0000000-0000-4000-8000-000000000001"
    id              = "3e7c1d2a-5b4f-4e8a-9c6d-0f1e2d3c4b5a"
  }
}
