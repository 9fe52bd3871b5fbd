module github.com/unikorn-cloud/terraform-provider-unikorn

go 1.25.0

require (
	github.com/google/uuid v1.6.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/hashicorp/terraform-plugin-log v0.10.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
)
