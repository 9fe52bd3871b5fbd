package cloud

import (
	"fmt"
	"regexp"
)

// nameRule is core's one rule for the name of every object a family writes: the
// resourceWriteMetadata's name is a kubernetesLabelValue (core's
// pkg/openapi/common.spec.yaml), which region, compute and identity all take, and
// their API middleware refuses anything else with a 400.
var nameRule = regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z-_.]{0,61}[0-9A-Za-z])?$`)

// NameRule says core's name rule in words, for descriptions and error messages.
const NameRule = "1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit"

// ValidateName returns why Unikorn would refuse name for an object of noun (e.g.
// "instance"), or nil.
func ValidateName(noun, name string) error {
	if !nameRule.MatchString(name) {
		return fmt.Errorf("%q is not a valid %s name: use %s", name, noun, NameRule)
	}

	return nil
}

// labelRule is region's rule for the names of what an object holds by name (a load
// balancer's listeners, a file storage's snapshot policies): a DNS label that starts
// with a lower-case letter (region's spec: loadBalancerListenerNameV2, and the
// storage snapshot policies' name), each kind with a length of its own.
var labelRule = regexp.MustCompile(`^[a-z]([-a-z0-9]*[a-z0-9])?$`)

// IsLabel reports whether region takes name as the name of something an object holds
// (see labelRule); its length is the caller's to check.
func IsLabel(name string) bool {
	return labelRule.MatchString(name)
}
