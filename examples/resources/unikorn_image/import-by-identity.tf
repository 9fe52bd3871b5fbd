import {
  to = unikorn_image.ubuntu
  identity = {
    id = "5a1c9e2b-3d4f-4a6b-8c7d-9e0f1a2b3c4d"
  }
}
