# A web tier: a network of its own, a security group that lets web traffic in, and a
# number of instances on them. Its tests (tests/) run with `terraform test` or
# `tofu test` against the sandbox; see the guide "Testing your modules against the
# sandbox".

terraform {
  # Preconditions and the test framework's plan-only runs.
  required_version = ">= 1.6"

  required_providers {
    unikorn = {
      source = "unikorn-cloud/unikorn"
    }
  }
}

data "unikorn_regions" "all" {}

locals {
  regions = { for r in data.unikorn_regions.all.regions : r.name => r }
  region  = var.region_name == null ? data.unikorn_regions.all.regions[0] : local.regions[var.region_name]
}

# Looked up by name, so that the module's rules can name what is wrong with them.
data "unikorn_flavors" "web" {
  region_id = local.region.id
  name      = var.flavor_name
}

data "unikorn_images" "web" {
  region_id = local.region.id
  name      = var.image_name
}

locals {
  flavor = one(data.unikorn_flavors.web.flavors)
  image  = one(data.unikorn_images.web.images)
}

resource "unikorn_network" "web" {
  name      = var.name
  region_id = local.region.id
  prefix    = var.network_prefix
  tags      = var.tags
}

resource "unikorn_security_group" "web" {
  name       = "${var.name}-web"
  network_id = unikorn_network.web.id
  tags       = var.tags

  rules = concat(
    [
      { direction = "ingress", protocol = "tcp", port = 80 },
      { direction = "ingress", protocol = "tcp", port = 443 },
    ],
    [for prefix in var.ssh_from : { direction = "ingress", protocol = "tcp", port = 22, prefix = prefix }],
  )
}

resource "unikorn_compute_instance" "web" {
  count = var.instance_count

  name               = "${var.name}-${count.index + 1}"
  network_id         = unikorn_network.web.id
  flavor_id          = local.flavor.id
  image_id           = local.image.id
  security_group_ids = [unikorn_security_group.web.id]
  public_ip          = var.public_ip
  tags               = var.tags

  lifecycle {
    # What the module promises its callers, checked at plan time before anything is
    # made. The provider checks the same and more, but only a custom condition can be
    # named in a test's expect_failures.
    precondition {
      condition     = local.flavor != null
      error_message = "There is no flavor named \"${var.flavor_name}\" in region ${local.region.name}: see the unikorn_flavors data source for those there are."
    }

    precondition {
      condition     = local.image != null
      error_message = "There is no ready image named \"${var.image_name}\" in region ${local.region.name}: see the unikorn_images data source for those there are."
    }

    precondition {
      condition     = try(local.flavor.architecture == local.image.architecture, true)
      error_message = "Flavor ${var.flavor_name} has ${try(local.flavor.architecture, "?")} CPUs but image ${var.image_name} is built for ${try(local.image.architecture, "?")}: choose an image and a flavor of the same architecture."
    }
  }
}
