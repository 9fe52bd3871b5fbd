import {
  to = unikorn_network.web
  identity = {
    id = "0f6b4c2e-8a34-4c1e-9d57-2b5a3c0e9f11"
  }
}
