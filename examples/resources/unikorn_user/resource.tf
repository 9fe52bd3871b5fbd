# A colleague, in the team's group: they hold its roles once they sign in.
data "unikorn_role" "user" {
  name = "user"
}

resource "unikorn_group" "team" {
  name     = "team"
  role_ids = [data.unikorn_role.user.id]
}

resource "unikorn_user" "alice" {
  subject   = "alice@example.com"
  group_ids = [unikorn_group.team.id]
}
