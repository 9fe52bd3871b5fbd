data "unikorn_user" "alice" {
  subject = "alice@example.com"
}
