# The key is read while Terraform runs and is never written to the plan or the
# state. Here a provisioner uses it to log in to an instance that already exists.
ephemeral "unikorn_compute_instance_ssh_key" "web" {
  instance_id = var.instance_id
}

resource "terraform_data" "bootstrap" {
  input = var.instance_id

  connection {
    type        = "ssh"
    host        = var.instance_address
    user        = "ubuntu"
    private_key = ephemeral.unikorn_compute_instance_ssh_key.web.private_key
  }

  provisioner "remote-exec" {
    inline = ["cloud-init status --wait"]
  }
}

variable "instance_id" {
  type = string
}

variable "instance_address" {
  type = string
}
