# The key ends up in the state in plain text: prefer the ephemeral resource of the
# same name. This form suits a configuration that must hand the key on to a
# resource that keeps it anyway, such as a secret store.
data "unikorn_compute_instance_ssh_key" "web" {
  instance_id = var.instance_id
}

output "web_public_key" {
  value = data.unikorn_compute_instance_ssh_key.web.public_key_openssh
}

variable "instance_id" {
  type = string
}
