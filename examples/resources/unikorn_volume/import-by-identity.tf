import {
  to = unikorn_volume.data
  identity = {
    id = "8c2e6a1f-3b7d-4e9a-a5c4-1f0d2b3e4c5a"
  }
}
