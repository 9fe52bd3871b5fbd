import {
  to = unikorn_file_storage.shared
  identity = {
    id = "5b0f3f8e-7c1d-4a5e-9f2b-6d3c1a9e8b47"
  }
}
