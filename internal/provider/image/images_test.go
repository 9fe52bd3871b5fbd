package image_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// TestAccImageResource_foundByImages: unikorn_images finds the imported image beside
// the catalogue's, and `owned` tells them apart.
func TestAccImageResource_foundByImages(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	uri := acctest.ImageURL("golden.raw")
	lookups := `
data "unikorn_images" "all" {
  region_id  = %[1]s
  depends_on = [unikorn_image.golden]
}

data "unikorn_images" "owned" {
  region_id  = %[1]s
  owned      = true
  depends_on = [unikorn_image.golden]
}

data "unikorn_images" "catalogue" {
  region_id  = %[1]s
  owned      = false
  depends_on = [unikorn_image.golden]
}

data "unikorn_images" "ubuntu_owned" {
  region_id    = %[1]s
  owned        = true
  architecture = "x86_64"
  os_distro    = "ubuntu"
  os_version   = "24.04"
  depends_on   = [unikorn_image.golden]
}
`

	has := func(address string, want bool) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			attributes := s.RootModule().Resources[address].Primary.Attributes
			found := false

			for key, value := range attributes {
				if regexp.MustCompile(`^images\.\d+\.id$`).MatchString(key) && value == imageID(s) {
					found = true
				}
			}

			if found != want {
				return fmt.Errorf("%s lists the imported image: %v, want %v (%s images)", address, found, want, attributes["images.#"])
			}

			return nil
		}
	}

	checks := []resource.TestCheckFunc{
		has("data.unikorn_images.all", true),
		has("data.unikorn_images.owned", true),
		has("data.unikorn_images.catalogue", false),
		has("data.unikorn_images.ubuntu_owned", true),
		// The catalogue's own images are there, and not among the owned.
		resource.TestCheckResourceAttrWith("data.unikorn_images.catalogue", "images.#", func(value string) error {
			if value == "0" {
				return fmt.Errorf("the catalogue's images are missing")
			}

			return nil
		}),
	}
	if env.IsSandbox() {
		// The sandbox gives the test an organization of its own, so the imported image
		// is the only one it owns; a real region's organization is shared with every
		// other test that imports an image meanwhile.
		checks = append(checks, resource.TestCheckResourceAttr("data.unikorn_images.owned", "images.#", "1"))
	}

	resource.ParallelTest(t, testCase(t, env, resource.TestStep{
		Config: env.ProviderConfig() + imageBlock(env, uri, "first", "") + fmt.Sprintf(lookups, acctest.Quote(env.RegionID)),
		Check:  resource.ComposeAggregateTestCheckFunc(checks...),
	}))
}
