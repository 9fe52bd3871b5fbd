# Imported by ORGANIZATION_ID/ID, or by the ID alone in the provider's organization.
# The service never shows `api` or `networking`: write them as the cluster has them.
terraform import unikorn_kubernetes_cluster.web a0000000-0000-4000-8000-000000000001/3e7c1d2a-5b4f-4e8a-9c6d-0f1e2d3c4b5a
