# The team's group: its members hold the project user role in the projects that name it.
data "unikorn_roles" "all" {}

resource "unikorn_group" "team" {
  name     = "team"
  role_ids = [data.unikorn_roles.all.ids["user"]]
}
