# A snapshot image is imported by its ID; it is looked for in every region of the
# provider's organization_id.
terraform import unikorn_snapshot.golden 5a1c9e2b-3d4f-4a6b-8c7d-9e0f1a2b3c4d
