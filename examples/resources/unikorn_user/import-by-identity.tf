import {
  to = unikorn_user.alice
  identity = {
    organization_id = "a0000000-0000-4000-8000-000000000001"
    id              = "6d1e3f0a-2b4c-4a8e-9f17-3c5d7e9a1b22"
  }
}
