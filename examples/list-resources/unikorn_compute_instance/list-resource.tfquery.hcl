# Every instance of the organization, in every project the token can see.
list "unikorn_compute_instance" "all" {
  provider = unikorn
}

# The web servers of one project: every tag must match.
list "unikorn_compute_instance" "web" {
  provider = unikorn

  config {
    project_id = "a0000000-0000-4000-8000-000000000002"
    tags = {
      team = "web"
    }
  }
}

# At most 20 instances of one network, with everything their resources would hold.
# `terraform query -generate-config-out=generated.tf` writes a resource and an
# import block for each.
list "unikorn_compute_instance" "default_network" {
  provider         = unikorn
  include_resource = true
  limit            = 20

  config {
    network_id = "c0000000-0000-4000-8000-000000000001"
  }
}
