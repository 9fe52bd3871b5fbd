data "unikorn_group" "administrators" {
  name = "administrators"
}
