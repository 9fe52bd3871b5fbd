# What the tier does when quota runs out. Run it against a sandbox whose organization
# may have two servers, with `-test-directory=tests/quota`:
#
#   UNIKORN_SANDBOX_QUOTA=servers=2 unikorn-sandbox -listen 127.0.0.1:0 -env-file sandbox.env &
#
# The second run is expected to FAIL, with the provider's quota error naming the
# instance and the quota; a test framework cannot expect a provider's error, so the
# caller checks the message, and that the framework's destroy left nothing behind.
# The guide "Testing your modules against the sandbox" shows how.

variables {
  name           = "quota"
  network_prefix = "10.21.0.0/24"
  flavor_name    = "sim-standard-4"
  image_name     = "ubuntu-24.04-amd64"
}

run "fills_the_quota" {
  variables {
    instance_count = 2
  }

  assert {
    condition     = output.instance_count == 2
    error_message = "Two instances fit."
  }
}

run "asks_for_one_more_than_the_quota" {
  variables {
    instance_count = 3
  }
}
