# A project for the team; creating one needs the organization administrator role.
data "unikorn_group" "team" {
  name = "team"
}

resource "unikorn_project" "team" {
  name        = "team"
  description = "Everything the team runs"
  group_ids   = [data.unikorn_group.team.id]

  timeouts = {
    delete = "30m"
  }
}
