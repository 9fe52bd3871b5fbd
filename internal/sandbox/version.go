package sandbox

import "github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/region"

// RegionPrefix is region's own base URL on the sandbox's listener.
const RegionPrefix = region.Prefix

// The release identity reports: its binary's name, as Unikorn's
// constants.Application takes it from os.Args[0], and the version of identity the
// sandbox follows (pkg/handler/handler_version.go).
const (
	identityApplication = "unikorn-identity"
	identityRelease     = "1.18.1"
)
