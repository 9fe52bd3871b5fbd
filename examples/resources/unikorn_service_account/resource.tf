# The team's pipeline: a service account in the team's group.
data "unikorn_group" "team" {
  name = "team"
}

resource "unikorn_service_account" "ci" {
  name      = "ci"
  group_ids = [data.unikorn_group.team.id]
}
