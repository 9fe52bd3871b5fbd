# Every attribute may instead come from its UNIKORN_* environment variable, which
# keeps the token out of the configuration.
#
# An ordinary project user reaches instances through compute's public API: with a
# compute endpoint set, instance_api defaults to "compute" and instances need no
# identity endpoint (identity's projects, groups and service accounts do).
provider "unikorn" {
  region_endpoint  = "https://region.example.com"
  compute_endpoint = "https://compute.example.com"
  organization_id  = "a0000000-0000-4000-8000-000000000001"
  project_id       = "a0000000-0000-4000-8000-000000000002"
  # token = set UNIKORN_TOKEN
  # token_seal_key = set UNIKORN_TOKEN_SEAL_KEY, to keep the tokens of the service
  # accounts this block creates sealed in state (see unikorn_service_account)
}

# Operators and platform automation holding service rights may instead play
# compute's part through region's servers and identity's quota allocations.
provider "unikorn" {
  alias             = "service"
  region_endpoint   = "https://region.example.com"
  identity_endpoint = "https://identity.example.com"
  instance_api      = "region"
}
