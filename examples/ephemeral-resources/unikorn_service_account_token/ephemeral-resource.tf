# The pipeline's token configures a second provider block, which builds in the team's
# project as the pipeline would. The token is in neither the plan nor the state: the
# state holds only the sealed token, which the administrator's provider opens with
# its token_seal_key in every run, the destroy included.
variable "token_seal_key" {
  type      = string
  sensitive = true
  ephemeral = true # kept out of saved plans too
}

provider "unikorn" {
  token_seal_key = var.token_seal_key
}

data "unikorn_group" "team" {
  name = "team"
}

resource "unikorn_project" "team" {
  name      = "team"
  group_ids = [data.unikorn_group.team.id]
}

resource "unikorn_service_account" "pipeline" {
  name      = "pipeline"
  group_ids = [data.unikorn_group.team.id]
}

ephemeral "unikorn_service_account_token" "pipeline" {
  service_account_id = unikorn_service_account.pipeline.id
  sealed_token       = unikorn_service_account.pipeline.sealed_token
}

# Configured from objects this run makes: Terraform plans its resources without
# calling Unikorn, and configures it when they exist.
provider "unikorn" {
  alias      = "team"
  token      = ephemeral.unikorn_service_account_token.pipeline.token
  project_id = unikorn_project.team.id
}
