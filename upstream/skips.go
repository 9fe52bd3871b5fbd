package main

import "strings"

type suite struct {
	name, pkg string
	// vars are the configuration variables the suite reads.
	vars []string
}

func (s suite) uses(key string) bool {
	for _, v := range s.vars {
		if v == key {
			return true
		}
	}

	return false
}

var suites = []suite{
	{
		name: "region",
		pkg:  "github.com/unikorn-cloud/region/test/api/suites",
		vars: []string{
			"API_BASE_URL", "REGION_BASE_URL", "API_AUTH_TOKEN", "REQUEST_TIMEOUT", "TEST_TIMEOUT", "TEST_ORG_ID", "TEST_PROJECT_ID",
			"TEST_REGION_ID", "TEST_PRIVATE_REGION_ID", "TEST_SECONDARY_ORG_ID", "TEST_SECONDARY_PROJECT_ID", "TEST_SECONDARY_AUTH_TOKEN", "TEST_SERVER_FLAVOR_ID",
			"TEST_SERVER_IMAGE_ID", "TEST_SERVER_REBUILD_IMAGE_ID", "INTERNAL_API_ACTOR",
		},
	},
	{
		name: "identity",
		pkg:  "github.com/unikorn-cloud/identity/test/api/suites",
		vars: []string{
			"IDENTITY_BASE_URL", "API_AUTH_TOKEN", "ADMIN_AUTH_TOKEN", "REQUEST_TIMEOUT", "TEST_TIMEOUT", "TEST_ORG_ID", "TEST_PROJECT_ID",
			"UNAUTHORISED_ORG_ID", "TEST_ADMIN_GROUP_ID", "TEST_USER_GROUP_ID", "TEST_ADMIN_SA_ID", "TEST_USER_SA_ID",
			"SERVICE_ACCOUNT_TOKEN", "AUDIT_AUTH_TOKEN", "USER_AUTH_TOKEN", "TEST_USER_ID", "TEST_USER_SUBJECT_EMAIL",
		},
	},
}

// This file is the one list of what the runner leaves out, each with its reason: the
// specs it tells Ginkgo to skip, and the configuration variables it leaves unset (a
// suite skips the specs that need one, saying which). A spec is left out only where no
// simulation can stand in for what it needs, never because the sandbox lacks the
// endpoint yet: such a spec runs, and fails, until the sandbox serves it.

// skip is a spec the runner tells Ginkgo to skip.
type skip struct {
	suite   string
	pattern string // a regular expression on the spec's full text
	reason  string
}

// skips is empty: every spec runs. Region's server specs skip themselves ("tests
// require an OpenStack-backed region") where the region is not OpenStack's, and
// ordered containers skip what follows a failed spec.
var skips = []skip{}

// unset are the configuration variables the runner leaves empty, and why.
var unset = []struct{ suite, variable, reason string }{
	{"region", "REGION_CA_CERT", "the sandbox speaks plain HTTP on loopback; there is no CA to trust"},
	{"identity", "IDENTITY_CA_CERT", "the sandbox speaks plain HTTP on loopback; there is no CA to trust"},
	{"region", "INTERNAL_API_CLIENT_CERT", "region's internal API authenticates services by mTLS client certificates, which the sandbox does not issue"},
	{"region", "INTERNAL_API_CLIENT_KEY", "as INTERNAL_API_CLIENT_CERT"},
	{"region", "TEST_SERVER_INFRASTRUCTURE_REF", "a reference to OpenStack infrastructure (hack/openstack/configure-server), which a simulation has none of"},
}

func skipPattern(suiteName string) string {
	patterns := []string{}

	for _, s := range skips {
		if s.suite == suiteName {
			patterns = append(patterns, "(?:"+s.pattern+")")
		}
	}

	return strings.Join(patterns, "|")
}

// known is a spec that fails against the sandbox today because the sandbox does not yet
// answer as Unikorn does. It is not skipped: it runs, and its failure is reported. It
// only keeps `make test` to the failures already known, so that any other failure, a
// spec that passed before, fails the run, and a known spec that passes fails it too
// until it is taken off this list, which so stays true. The list shrinks to nothing as
// the sandbox learns what it lacks.
type known struct {
	suite   string
	pattern string // a regular expression on the spec's full text
	reason  string
}

var knownFailures = []known{}
