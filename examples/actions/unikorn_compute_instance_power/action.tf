resource "unikorn_compute_instance" "batch" {
  name       = "batch"
  network_id = var.network_id
  flavor_id  = var.flavor_id
  image_id   = var.image_id
}

# Stop the instance whenever the schedule says so. Invoke it by hand with
#   terraform apply -invoke=action.unikorn_compute_instance_power.stop
action "unikorn_compute_instance_power" "stop" {
  config {
    instance_id = unikorn_compute_instance.batch.id
    operation   = "stop"
    timeout     = "10m"
  }
}

resource "terraform_data" "off_hours" {
  input = var.off_hours

  lifecycle {
    action_trigger {
      events    = [after_create, after_update]
      condition = var.off_hours
      actions   = [action.unikorn_compute_instance_power.stop]
    }
  }
}

variable "off_hours" {
  type = bool
}

variable "network_id" {
  type = string
}

variable "flavor_id" {
  type = string
}

variable "image_id" {
  type = string
}
