# A project for the team; creating one needs the organization administrator role.
resource "unikorn_project" "team" {
  name        = "team"
  description = "Everything the team runs"
  group_ids   = [unikorn_group.team.id]

  timeouts {
    delete = "30m"
  }
}
