# The team's pipeline: a service account in the team's group. With the provider's
# token_seal_key, its token is kept in state only sealed (sealed_token).
data "unikorn_group" "team" {
  name = "team"
}

# Bump it to rotate the token; or use the id of a time_rotating resource of the
# hashicorp/time provider to rotate on a schedule.
variable "token_generation" {
  type    = string
  default = "1"
}

resource "unikorn_service_account" "pipeline" {
  name      = "pipeline"
  group_ids = [data.unikorn_group.team.id]

  # Changing any value rotates the token when Terraform applies, never when it plans.
  rotation_trigger = {
    generation = var.token_generation
  }
}
