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
