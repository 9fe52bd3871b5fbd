package image_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const imageAddress = "unikorn_image.golden"

// imageBlock is image golden, imported from uri into the environment's region, with
// stage tag; extra is added inside the block.
func imageBlock(env *acctest.Environment, uri, stage, extra string) string {
	return fmt.Sprintf(`
resource "unikorn_image" "golden" {
  name           = "golden"
  region_id      = %[1]s
  uri            = %[2]s
  architecture   = "x86_64"
  virtualization = "virtualized"
  os = {
    kernel  = "linux"
    family  = "debian"
    distro  = "ubuntu"
    version = "24.04"
    codename = "noble"
  }
  software_versions = {
    kubernetes = "v1.30.2"
  }
  tags = {
    team  = "platform"
    stage = %[3]s
  }
%[4]s
}
`, acctest.Quote(env.RegionID), acctest.Quote(uri), acctest.Quote(stage), extra)
}

// checkNothingLeft is a CheckDestroy: no image (nor anything else users made) is left
// in the sandbox's records; against a real Unikorn, which other tests share, region
// finds none of the images the state held.
func checkNothingLeft(t *testing.T, env *acctest.Environment) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if env.IsSandbox() {
			if left := env.LeftBehind(t); len(left) != 0 {
				return fmt.Errorf("destroy left %v", left)
			}

			return nil
		}

		for _, r := range s.RootModule().Resources {
			if r.Type != "unikorn_image" {
				continue
			}

			_, err := env.Client.GetImage(t.Context(), r.Primary.Attributes["organization_id"], r.Primary.Attributes["region_id"], r.Primary.ID)
			if !unikorn.IsNotFound(err) {
				return fmt.Errorf("image %s is still there after destroy: %w", r.Primary.ID, err)
			}
		}

		return nil
	}
}

// testCase is the frame of the image's acceptance tests: each ends with nothing left.
func testCase(t *testing.T, env *acctest.Environment, steps ...resource.TestStep) resource.TestCase {
	t.Helper()

	test := env.TestCase(t, steps...)
	test.CheckDestroy = checkNothingLeft(t, env)

	return test
}

func imageID(s *terraform.State) string { return s.RootModule().Resources[imageAddress].Primary.ID }

// TestAccImageResource_lifecycle imports an image from a URL and waits until it is
// ready, imports it into Terraform by ID and by identity, replaces it when its tags
// change (region cannot change an image) and deletes it on destroy.
func TestAccImageResource_lifecycle(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	uri := acctest.ImageURL("golden.raw")
	env.SetImageSource(t, sandbox.ImageSource{URI: uri, SizeGiB: 7})

	var firstID string

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{
			Config: env.ProviderConfig() + imageBlock(env, uri, "first", ""),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(imageAddress, tfjsonpath.New("state"), knownvalue.StringExact(unikorn.ImageReady)),
				statecheck.ExpectKnownValue(imageAddress, tfjsonpath.New("size_gib"), knownvalue.Int64Exact(7)),
				statecheck.ExpectKnownValue(imageAddress, tfjsonpath.New("organization_id"),
					knownvalue.StringExact(env.Settings.OrganizationID)),
				statecheck.ExpectKnownValue(imageAddress, tfjsonpath.New("os").AtMapKey("codename"), knownvalue.StringExact("noble")),
				statecheck.ExpectKnownValue(imageAddress, tfjsonpath.New("os").AtMapKey("variant"), knownvalue.Null()),
				statecheck.ExpectKnownValue(imageAddress, tfjsonpath.New("gpu"), knownvalue.Null()),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrSet(imageAddress, "creation_time"),
				func(s *terraform.State) error { firstID = imageID(s); return nil },
			),
		},
		// Region does not keep the URI: an imported image takes the configured one.
		resource.TestStep{
			ResourceName: imageAddress, ImportState: true, ImportStateVerify: true,
			ImportStateVerifyIgnore: []string{"timeouts", "uri"},
		},
		// Imported by identity, the image takes the configured URI in place: an
		// update, never a replacement.
		resource.TestStep{
			ResourceName: imageAddress, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
			ExpectNonEmptyPlan: true,
			ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(imageAddress, plancheck.ResourceActionUpdate),
			}},
		},
		resource.TestStep{
			Config: env.ProviderConfig() + imageBlock(env, uri, "second", ""),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(imageAddress, plancheck.ResourceActionDestroyBeforeCreate),
			}},
			Check: func(s *terraform.State) error {
				if imageID(s) == firstID {
					return fmt.Errorf("new tags kept image %s", firstID)
				}

				if left := env.LeftBehind(t); len(left) != 1 || left[0].ID != imageID(s) {
					return fmt.Errorf("the sandbox holds %v, want only image %s", left, imageID(s))
				}

				return nil
			},
		},
	))
}

// TestAccImageResource_importedTakesTheURI forgets an image, then imports it again
// with an import block: region does not keep the URI, so the plan takes the
// configured one in place, and nothing is replaced.
func TestAccImageResource_importedTakesTheURI(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	uri := acctest.ImageURL("golden.raw")
	// The image's ID, for the import block, once the first step has made it.
	variables := config.Variables{}

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{
			Config: env.ProviderConfig() + imageBlock(env, uri, "first", ""),
			Check: func(s *terraform.State) error {
				variables["image_id"] = config.StringVariable(imageID(s))

				return nil
			},
		},
		resource.TestStep{Config: env.ProviderConfig() + `
removed {
  from = unikorn_image.golden
  lifecycle {
    destroy = false
  }
}
`},
		resource.TestStep{
			ConfigVariables: variables,
			Config: env.ProviderConfig() + imageBlock(env, uri, "first", "") + `
variable "image_id" {
  type = string
}

import {
  to = unikorn_image.golden
  id = var.image_id
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(imageAddress, plancheck.ResourceActionUpdate),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(imageAddress, tfjsonpath.New("uri"), knownvalue.StringExact(uri)),
			},
		},
	))
}

// TestAccImageResource_importMissing: an ID no region of the organization has is
// nothing to import.
func TestAccImageResource_importMissing(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		Config:        env.ProviderConfig() + imageBlock(env, acctest.ImageURL("golden.raw"), "first", ""),
		ResourceName:  imageAddress,
		ImportState:   true,
		ImportStateId: "f0000000-0000-4000-8000-000000000000",
		ExpectError:   regexp.MustCompile(`Cannot import non-existent remote object`),
	}))
}

// TestAccImageResource_invalid refuses at plan, on the attribute, what region would
// refuse or lose: a bad name, a URL region cannot fetch, an unknown architecture, a
// description.
func TestAccImageResource_invalid(t *testing.T) {
	env := acctest.New(t)

	valid := imageBlock(env, acctest.ImageURL("golden.raw"), "first", "")

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config:      env.ProviderConfig() + regexp.MustCompile(`name           = "golden"`).ReplaceAllString(valid, `name = "-golden"`),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)"-golden" is not a valid image name`),
		},
		resource.TestStep{
			Config:      env.ProviderConfig() + imageBlock(env, "ftp://images.example.com/golden.raw", "first", ""),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)uri.*must be an http or https URL`),
		},
		resource.TestStep{
			Config:      env.ProviderConfig() + regexp.MustCompile(`"x86_64"`).ReplaceAllString(valid, `"arm64"`),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)architecture.*value must be one of`),
		},
		// Region keeps no description of an image: one would be lost after apply.
		resource.TestStep{
			Config:      env.ProviderConfig() + strings.Replace(valid, `name           = "golden"`, `name = "golden"`+"\n  description = \"hardened\"", 1),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Image description not kept.*description.*Remove ` + "`description`"),
		},
	))

	if env.IsSandbox() {
		assert.Empty(t, env.LeftBehind(t), "nothing was imported")
	}
}

// TestAccImageResource_failed: an import region marks failed is an error that says
// so, and the failed image is deleted, not saved nor left behind.
func TestAccImageResource_failed(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	uri := acctest.ImageURL("broken.raw")
	env.SetImageSource(t, sandbox.ImageSource{URI: uri, Outcome: sandbox.ImageSourceFailed})

	resource.ParallelTest(t, testCase(t, env, resource.TestStep{
		Config: env.ProviderConfig() + imageBlock(env, uri, "first", ""),
		ExpectError: regexp.MustCompile(`(?s)Unable to create the image.*could not import the image from\s+` +
			regexp.QuoteMeta(uri) + `.*Nothing is left behind`),
	}))

	assert.Empty(t, env.LeftBehind(t), "the failed image was deleted")
}

// TestAccImageResource_usedByInstance boots an instance from the image, then removes
// the image alone from the configuration: region refuses the delete, and the
// diagnostic names the instance. On each instance back end.
func TestAccImageResource_usedByInstance(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessFixtures(t)

		uri := acctest.ImageURL("golden.raw")
		instance := func(imageID string) string {
			return fmt.Sprintf(`
resource "unikorn_compute_instance" "booted" {
  name       = "booted"
  network_id = %[1]s
  flavor_id  = %[2]s
  image_id   = %[3]s
}
`, acctest.Quote(env.NetworkID), acctest.Quote(env.FlavorID), imageID)
		}

		// The image's ID, written out in the second step's configuration.
		variables := config.Variables{}

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{
				Config: env.ProviderConfig() + imageBlock(env, uri, "first", `  timeouts = { delete = "30s" }`) +
					instance("unikorn_image.golden.id"),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair("unikorn_compute_instance.booted", "image_id", imageAddress, "id"),
					func(s *terraform.State) error {
						variables["image_id"] = config.StringVariable(imageID(s))

						return nil
					},
				),
			},
			resource.TestStep{
				// The instance keeps the image's ID, written out; the image leaves the
				// configuration, and its delete is refused.
				ConfigVariables: variables,
				Config: env.ProviderConfig() + `
variable "image_id" {
  type = string
}
` + instance("var.image_id"),
				ExpectError: regexp.MustCompile(`(?s)Unable to delete the image.*waiting\s+would\s+not\s+help.*What\s+uses\s+it:\s+instance\s+"booted"\s+\(`),
			},
		))
	}, acctest.Production(t))
}

// TestAccImageResource_importSnapshotRefused refuses to import an image made from an
// instance: that is unikorn_snapshot's to manage.
func TestAccImageResource_importSnapshotRefused(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessFixtures(t)

	snapshot := env.WebInstance() + `
resource "unikorn_snapshot" "web" {
  instance_id = unikorn_compute_instance.web.id
  name        = "web"
}
`

	resource.ParallelTest(t, testCase(t, env,
		resource.TestStep{Config: env.ProviderConfig() + snapshot},
		resource.TestStep{
			Config:       env.ProviderConfig() + snapshot + imageBlock(env, acctest.ImageURL("golden.raw"), "first", ""),
			ResourceName: imageAddress, ImportState: true,
			ImportStateIdFunc: func(s *terraform.State) (string, error) {
				return s.RootModule().Resources["unikorn_snapshot.web"].Primary.ID, nil
			},
			ExpectError: regexp.MustCompile(`(?s)A snapshot image.*was\s+made\s+from\s+compute\s+instance.*Import it as a\s+unikorn_snapshot`),
		},
	))
}
