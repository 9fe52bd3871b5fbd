# An image is imported by its ID; it is looked for in every region of the provider's
# organization_id. Region does not keep an image's URI: the first apply after the
# import takes the configured uri in place.
terraform import unikorn_image.ubuntu 5a1c9e2b-3d4f-4a6b-8c7d-9e0f1a2b3c4d
