# The last 50 lines the instance wrote to its console, e.g. to see why it did not
# come up.
data "unikorn_compute_instance_console_output" "web" {
  instance_id = var.instance_id
  lines       = 50
}

output "web_console" {
  value = data.unikorn_compute_instance_console_output.web.contents
}

variable "instance_id" {
  type = string
}
