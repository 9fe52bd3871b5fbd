output "network_id" {
  description = "ID of the tier's network."
  value       = unikorn_network.web.id
}

output "security_group_id" {
  description = "ID of the tier's security group."
  value       = unikorn_security_group.web.id
}

output "instance_count" {
  description = "How many instances the tier runs."
  value       = length(unikorn_compute_instance.web)
}

output "instance_ids" {
  description = "IDs of the instances, in name order."
  value       = unikorn_compute_instance.web[*].id
}

output "private_addresses" {
  description = "The instances' addresses on the tier's network, in name order."
  value       = unikorn_compute_instance.web[*].private_ip
}

output "public_addresses" {
  description = "The instances' public addresses, in name order; empty without public_ip."
  value       = var.public_ip ? unikorn_compute_instance.web[*].public_ip_address : []
}
