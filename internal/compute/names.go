package compute

import "fmt"

// ValidateImageName checks the name of an image to be made from an instance. Core
// applies one rule to every name, so this is ValidateName worded for images.
func ValidateImageName(name string) error {
	if !labelValue.MatchString(name) {
		return fmt.Errorf("%q is not a valid image name: use 1 to 63 letters, digits, '-', '_' or '.', "+
			"starting and ending with a letter or digit", name)
	}

	return nil
}
