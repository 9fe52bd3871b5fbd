# A name that no role has fails here, listing the roles there are.
data "unikorn_role" "user" {
  name = "user"
}

output "user_role_id" {
  value = data.unikorn_role.user.id
}
