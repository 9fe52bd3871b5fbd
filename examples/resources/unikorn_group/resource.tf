# The team's group: its members hold the project user role in the projects that name it.
data "unikorn_role" "user" {
  name = "user"
}

resource "unikorn_group" "team" {
  name     = "team"
  role_ids = [data.unikorn_role.user.id]
}
