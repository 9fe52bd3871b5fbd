data "unikorn_network" "default" {
  name = "default"
}

# Networks often have security groups of the same names, so narrow the look-up to one.
data "unikorn_security_group" "ssh" {
  name       = "allow-ssh"
  network_id = data.unikorn_network.default.id
}

output "ssh_rules" {
  value = data.unikorn_security_group.ssh.rules
}
