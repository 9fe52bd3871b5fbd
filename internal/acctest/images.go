package acctest

import (
	"os"
	"strings"
)

// EnvImageURL is a base URL under which every path serves a raw disk image, as region
// reads one (its first sector, a master boot record) when asked to import it. Without
// it the tests' image URLs are under images.example.com, which only the sandbox takes
// (it reads nothing, and serves what SetImageSource says).
const EnvImageURL = "UNIKORN_ACC_IMAGE_URL"

// ImageURL is the URL of the raw disk image called file, for the tests' image imports.
func ImageURL(file string) string {
	base := os.Getenv(EnvImageURL)
	if base == "" {
		base = "https://images.example.com"
	}

	return strings.TrimSuffix(base, "/") + "/" + file
}
