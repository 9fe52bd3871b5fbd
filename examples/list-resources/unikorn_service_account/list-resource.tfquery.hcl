# Every service account of an organization. An imported account has no sealed token:
# change its rotation_trigger to issue one.
list "unikorn_service_account" "all" {
  provider         = unikorn
  include_resource = true

  config {
    organization_id = "a0000000-0000-4000-8000-000000000001"
  }
}
