# Plan-only runs: nothing is created, so they take about a second. Each bad input is
# refused at plan time by the module's own rule, which expect_failures names; the
# provider checks the same and would refuse the apply, but a test can only expect
# the failure of a custom condition.

variables {
  name           = "web"
  network_prefix = "10.20.0.0/24"
  flavor_name    = "sim-standard-4"
  image_name     = "ubuntu-24.04-amd64"
}

run "plans_the_tier" {
  command = plan

  assert {
    condition     = length(unikorn_compute_instance.web) == 2
    error_message = "Two instances by default."
  }

  assert {
    condition     = [for i in unikorn_compute_instance.web : i.name] == ["web-1", "web-2"]
    error_message = "Instances are named <name>-1, <name>-2."
  }

  assert {
    condition     = unikorn_network.web.prefix == "10.20.0.0/24"
    error_message = "The network takes the prefix given."
  }
}

run "refuses_a_prefix_with_host_bits" {
  command = plan

  variables {
    network_prefix = "10.20.0.1/24"
  }

  expect_failures = [var.network_prefix]
}

run "refuses_what_is_no_prefix" {
  command = plan

  variables {
    network_prefix = "10.20.0.300/24"
  }

  expect_failures = [var.network_prefix]
}

run "refuses_an_image_of_another_architecture" {
  command = plan

  variables {
    flavor_name = "sim-arm-2"
  }

  expect_failures = [unikorn_compute_instance.web]
}

run "refuses_a_flavor_that_does_not_exist" {
  command = plan

  variables {
    flavor_name = "sim-enormous-512"
  }

  expect_failures = [unikorn_compute_instance.web]
}
