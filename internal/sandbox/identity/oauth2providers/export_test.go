package oauth2providers

// The providers as identity reads and writes them, for the tests that send them.
type (
	Provider     = provider
	ProviderSpec = providerSpec
)
