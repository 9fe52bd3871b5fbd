data "unikorn_project" "team" {
  name = "team"
}
