# The team's pipeline: a service account in the team's group.
resource "unikorn_service_account" "ci" {
  name      = "ci"
  group_ids = [unikorn_group.team.id]
}
