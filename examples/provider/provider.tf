# Every attribute may instead come from its UNIKORN_* environment variable, which
# keeps the token out of the configuration.
provider "unikorn" {
  region_endpoint   = "https://region.example.com"
  identity_endpoint = "https://identity.example.com"
  organization_id   = "a0000000-0000-4000-8000-000000000001"
  project_id        = "a0000000-0000-4000-8000-000000000002"
  # token = set UNIKORN_TOKEN
}
