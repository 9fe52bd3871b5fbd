import {
  to = unikorn_project.this
  identity = {
    organization_id = "a0000000-0000-4000-8000-000000000001"
    id              = "0f6b4c2e-8a34-4c1e-9d57-2b5a3c0e9f11"
  }
}
