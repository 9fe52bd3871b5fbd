# The pipeline's token configures a second provider block, which builds in the new
# project as the pipeline would. The token is never saved in the plan or the state.
ephemeral "unikorn_service_account_token" "ci" {
  service_account_id = unikorn_service_account.ci.id
  # Every run after the first has no token of its own: rotate then.
  rotate = true
}

provider "unikorn" {
  alias      = "team"
  token      = ephemeral.unikorn_service_account_token.ci.token
  project_id = unikorn_project.team.id
}
