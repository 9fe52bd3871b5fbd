import {
  to = unikorn_load_balancer.web
  identity = {
    id = "5b0c7a3e-9d41-4f2a-8e6b-1c3d5f7a9b20"
  }
}
