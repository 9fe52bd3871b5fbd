module github.com/unikorn-cloud/terraform-provider-unikorn

go 1.25.0

require (
	github.com/google/uuid v1.6.0
	github.com/stretchr/testify v1.12.1
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
