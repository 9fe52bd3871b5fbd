# Instances given this authority accept SSH certificates signed by its key.
resource "unikorn_ssh_certificate_authority" "ops" {
  name       = "ops"
  public_key = var.ca_public_key
}

variable "ca_public_key" {
  description = "The authority's public key, e.g. the contents of ca.pub made by ssh-keygen."
  type        = string
}
