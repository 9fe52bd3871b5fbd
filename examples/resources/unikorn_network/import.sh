# A network is imported by its ID.
terraform import unikorn_network.web 0f6b4c2e-8a34-4c1e-9d57-2b5a3c0e9f11
