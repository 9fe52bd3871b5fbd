# An SSH certificate authority is imported by its ID.
terraform import unikorn_ssh_certificate_authority.ops 7d2e8f1a-6b3c-4d5e-9f0a-1b2c3d4e5f6a
