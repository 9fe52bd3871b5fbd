# The pipeline's token configures a second provider block, which builds in the team's
# project as the pipeline would. The token is never saved in the plan or the state.
data "unikorn_group" "team" {
  name = "team"
}

data "unikorn_project" "team" {
  name = "team"
}

resource "unikorn_service_account" "ci" {
  name      = "ci"
  group_ids = [data.unikorn_group.team.id]
}

ephemeral "unikorn_service_account_token" "ci" {
  service_account_id = unikorn_service_account.ci.id
  # Every run after the one that creates the account holds no token of it: rotate then.
  rotate = true
}

provider "unikorn" {
  alias      = "team"
  token      = ephemeral.unikorn_service_account_token.ci.token
  project_id = data.unikorn_project.team.id
}
