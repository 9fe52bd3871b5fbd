# File storage is imported by its ID.
terraform import unikorn_file_storage.shared 5b0f3f8e-7c1d-4a5e-9f2b-6d3c1a9e8b47
