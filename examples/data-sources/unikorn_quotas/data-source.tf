data "unikorn_quotas" "organization" {}

variable "servers" {
  type = number
}

# Refuse to plan more servers than the organization has room for.
check "room" {
  assert {
    condition     = data.unikorn_quotas.organization.quotas["servers"].free >= var.servers
    error_message = "Not enough server quota left."
  }
}
