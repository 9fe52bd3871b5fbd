# The provider's organization; give `id` to read another.
data "unikorn_organization" "this" {}

output "organization" {
  value = "${data.unikorn_organization.this.name} (${data.unikorn_organization.this.organization_type})"
}
