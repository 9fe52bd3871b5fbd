# An instance given this authority accepts SSH certificates it signed.
data "unikorn_ssh_certificate_authority" "ops" {
  name = "ops-ca"
}

output "ops_ca_public_key" {
  value = data.unikorn_ssh_certificate_authority.ops.public_key
}
