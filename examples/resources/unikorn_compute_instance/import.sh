# By instance ID: the provider searches every organization and project the token can see.
terraform import unikorn_compute_instance.web e5a7a1f2-3c4d-5e6f-8a9b-0c1d2e3f4a5b

# By organization ID, project ID and instance ID, which narrows the search.
terraform import unikorn_compute_instance.web a0000000-0000-4000-8000-000000000001/a0000000-0000-4000-8000-000000000002/e5a7a1f2-3c4d-5e6f-8a9b-0c1d2e3f4a5b
