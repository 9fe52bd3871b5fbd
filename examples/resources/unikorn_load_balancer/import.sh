# A load balancer is imported by its ID.
terraform import unikorn_load_balancer.web 5b0c7a3e-9d41-4f2a-8e6b-1c3d5f7a9b20
