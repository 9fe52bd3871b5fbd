package sandbox

import "strings"

// RegionPrefix is region's own base URL on the sandbox's listener.
const RegionPrefix = "/region"

// The release each simulated service reports: its binary's name, as Unikorn's
// constants.Application takes it from os.Args[0], and the version of Unikorn the
// sandbox follows (pkg/handler/handler_version.go of each).
const (
	identityApplication = "unikorn-identity"
	identityRelease     = "1.18.1"
	regionApplication   = "unikorn-region-controller"
	regionRelease       = "1.20.0"
)

// isRegionPath reports whether an API path is region's: region v1.20.0's paths are its
// v2 API and, in v1, an organization's regions and what hangs off them; identity has
// neither.
func isRegionPath(path string) bool {
	return strings.HasPrefix(path, "/api/v2/") || strings.HasPrefix(path, "/api/v1/organizations/{organizationID}/regions")
}
