package main

import (
	"regexp"
	"strings"
)

// This file is the one list of the acceptance tests of acceptancePackages that do not
// run against real region, each with its reason: what region v1.20.0's simulated
// provider, or a region without a Kubernetes API server behind it, cannot do, never
// what the harness merely lacks.
type skip struct {
	// test is a regular expression on a test's full name: a test, or a test and its
	// subtest ("TestX/compute").
	test   string
	reason string
}

var skips = []skip{
	// Instances: region's simulated provider refuses every server operation
	// (ErrUnsupportedOperation), and compute is not part of the harness.
	{`Test\w+/compute`, "compute's instance API: the harness runs region alone, without compute"},
	{`TestAccImageResource_usedByInstance|TestAccImageResource_importSnapshotRefused|TestAccImages_snapshots|TestAccStack_fromEmptyProject|TestAccNetworkResource_inUse`,
		"an instance on the region path: region's simulated provider refuses to create servers"},

	// Images: what the sandbox finds at an image's URL is what a test says it finds
	// (SetImageSource); region reads the URL, which the runner serves a raw image at.
	{`TestAccImageResource_(?:lifecycle|failed)`, "says what the sandbox finds at an image's URL (SetImageSource)"},

	// The simulated provider's catalogue is two flavors and its own images, not the
	// sandbox's, whose exact contents these tests check.
	{`TestAccFlavors_filters|TestAccImages_filters`, "the exact catalogue of the sandbox's fixtures, which region's simulated provider does not have"},

	// Region's own fixtures: networks, security groups and SSH certificate
	// authorities that the sandbox holds from its start, which region does not.
	{`TestAccNetwork_byName|TestAccNetwork_notFound|TestAccNetwork_selectorValidation|TestAccSecurityGroup_byIDAndByName|TestAccSSHCertificateAuthority_byIDAndByName|TestAccQueryGeneratesConfigurationThatImports|TestAccLoadBalancerDataSource|TestAccLoadBalancer_replace`,
		"the sandbox's fixture networks, security groups and SSH certificate authorities, which region does not hold"},

	// What steers or inspects the simulation of region itself.
	{`TestAccLostCreateAnswersAreAdopted`, "injects faults into region's answers, which only the sandbox's region can"},
	{`TestAccLoadBalancer_listenerChange(?:ByReplacement|ReplaceFlag)|TestAccLoadBalancer_unknownAtPlan|TestAccLoadBalancer_quota`,
		"reads load balancers past the read lag through the sandbox's control API"},
	{`TestAccNetworkResource_quota`, "fills the organization's networks quota, which every test shares here"},
}

// skipPattern is go test's -skip of the entries that name whole tests; the others,
// naming subtests, skip themselves (go test cannot join patterns of several levels).
func skipPattern() string {
	patterns := []string{}

	for _, s := range skips {
		if !strings.Contains(s.test, "/") {
			patterns = append(patterns, "^(?:"+s.test+")$")
		}
	}

	return strings.Join(patterns, "|")
}

// listed reports whether a skipped test (or subtest) is in the list.
func listed(name string) bool {
	for _, s := range skips {
		if regexp.MustCompile("^(?:" + s.test + ")$").MatchString(name) {
			return true
		}
	}

	return false
}

// suiteSkips are the specs of region's own API suite that do not run against the
// harness, each with its reason, as upstream/skips.go lists those that do not run
// against the sandbox.
var suiteSkips = []skip{
	{`Image Management When managing a custom image .*`, "imports an image from a URL on the internet, which region reads on import and this machine cannot reach"},
}

// suiteSkipPattern is Ginkgo's -skip of every entry of suiteSkips.
func suiteSkipPattern() string {
	patterns := make([]string, 0, len(suiteSkips))

	for _, s := range suiteSkips {
		patterns = append(patterns, "(?:"+s.test+")")
	}

	return strings.Join(patterns, "|")
}
