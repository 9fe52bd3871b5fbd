# An apply against the sandbox: the tier is made, its outputs checked, and everything
# destroyed again by the test framework when the file ends.

variables {
  name           = "web"
  network_prefix = "10.20.0.0/24"
  flavor_name    = "sim-standard-4"
  image_name     = "ubuntu-24.04-amd64"
  public_ip      = true
}

run "builds_the_tier" {
  assert {
    condition     = output.instance_count == 2
    error_message = "Two instances by default."
  }

  assert {
    condition     = length(distinct(output.private_addresses)) == 2
    error_message = "Every instance has an address of its own: ${jsonencode(output.private_addresses)}."
  }

  assert {
    condition = alltrue([
      for address in output.private_addresses : cidrsubnet("${address}/24", 0, 0) == var.network_prefix
    ])
    error_message = "Every address is on the tier's network ${var.network_prefix}: ${jsonencode(output.private_addresses)}."
  }

  assert {
    condition     = length(output.public_addresses) == 2 && alltrue([for address in output.public_addresses : can(cidrhost("${address}/32", 0))])
    error_message = "Every instance has a public address: ${jsonencode(output.public_addresses)}."
  }

  assert {
    condition     = alltrue([for i in unikorn_compute_instance.web : i.provisioning_status == "provisioned" && i.power_state == "Running"])
    error_message = "The apply returns once every instance runs."
  }
}
