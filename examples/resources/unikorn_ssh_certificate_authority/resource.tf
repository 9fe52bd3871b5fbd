# Instances given this authority accept SSH certificates signed by its key.
resource "unikorn_ssh_certificate_authority" "ops" {
  name       = "ops"
  public_key = file("${path.module}/ca.pub")
}
