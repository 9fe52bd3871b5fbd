data "unikorn_roles" "all" {}

output "user_role_id" {
  value = data.unikorn_roles.all.ids["user"]
}
