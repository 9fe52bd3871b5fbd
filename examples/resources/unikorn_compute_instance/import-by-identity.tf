import {
  to = unikorn_compute_instance.web
  identity = {
    id = "e5a7a1f2-3c4d-5e6f-8a9b-0c1d2e3f4a5b"
    # Optional: they narrow the search for the instance.
    organization_id = "a0000000-0000-4000-8000-000000000001"
    project_id      = "a0000000-0000-4000-8000-000000000002"
  }
}
