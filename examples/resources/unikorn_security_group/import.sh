# A security group is imported by its ID.
terraform import unikorn_security_group.web 3c1d9a4e-5b6f-4a7c-8d9e-0f1a2b3c4d5e
