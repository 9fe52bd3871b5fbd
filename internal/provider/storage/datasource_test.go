package storage_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// TestAccFileStorageDataSource finds storage by ID and by name, with its mounts and
// its tags (empty, not null, when it has none), and says which attribute to fix when a
// name finds none or several.
func TestAccFileStorageDataSource(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	c := newConfig(t, env)
	c.Attachments = []string{acctest.Quote(sandbox.NetworkDefaultID)}
	c.Description = "found"
	c.Extra = `
data "unikorn_file_storage" "by_id" {
  id = unikorn_file_storage.this.id
}

data "unikorn_file_storage" "by_name" {
  name       = unikorn_file_storage.this.name
  depends_on = [unikorn_file_storage.this]
}
`

	duplicate := c
	duplicate.Extra = `
resource "unikorn_file_storage" "twin" {
  name             = "shared"
  region_id        = ` + acctest.Quote(env.RegionID) + `
  storage_class_id = ` + acctest.Quote(env.StorageClassID(t)) + `
  size_gib         = 1
}

data "unikorn_file_storage" "by_name" {
  name       = "shared"
  depends_on = [unikorn_file_storage.this, unikorn_file_storage.twin]
}
`

	mount := tfjsonpath.New("mounts").AtMapKey(sandbox.NetworkDefaultID).AtMapKey("mount_source")

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: c.String(),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.CompareValuePairs("data.unikorn_file_storage.by_id", tfjsonpath.New("id"),
					storageAddress, tfjsonpath.New("id"), compare.ValuesSame()),
				statecheck.CompareValuePairs("data.unikorn_file_storage.by_name", tfjsonpath.New("id"),
					storageAddress, tfjsonpath.New("id"), compare.ValuesSame()),
				statecheck.CompareValuePairs("data.unikorn_file_storage.by_name", mount, storageAddress, mount, compare.ValuesSame()),
				statecheck.ExpectKnownValue("data.unikorn_file_storage.by_id", tfjsonpath.New("description"), knownvalue.StringExact("found")),
				statecheck.ExpectKnownValue("data.unikorn_file_storage.by_id", tfjsonpath.New("project_id"), knownvalue.StringExact(sandbox.ProjectID)),
				statecheck.ExpectKnownValue("data.unikorn_file_storage.by_id", tfjsonpath.New("size_gib"), knownvalue.Int64Exact(10)),
				// A look-up's tags are always a map, empty when the storage has none.
				statecheck.ExpectKnownValue("data.unikorn_file_storage.by_id", tfjsonpath.New("tags"),
					knownvalue.MapExact(map[string]knownvalue.Check{})),
			},
		},
		resource.TestStep{
			Config: c.String() + `
data "unikorn_file_storage" "missing" {
  name = "nobody-has-this"
}
`,
			ExpectError: regexp.MustCompile(`(?s)File storage not found.*No file storage is named "nobody-has-this"`),
		},
		resource.TestStep{
			Config:      duplicate.String(),
			ExpectError: regexp.MustCompile(`(?s)Ambiguous file storage name.*with data.unikorn_file_storage.by_name.*2 in project`),
		},
	))
}

// TestAccFileStorageClassesDataSource narrows the classes by region, name and
// protocol, and lists only those the organization may use.
func TestAccFileStorageClassesDataSource(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	ids := func(address string, want ...string) statecheck.StateCheck {
		checks := make([]knownvalue.Check, len(want))
		for i, id := range want {
			checks[i] = knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(id)})
		}

		return statecheck.ExpectKnownValue(address, tfjsonpath.New("classes"), knownvalue.ListExact(checks))
	}

	resource.ParallelTest(t, env.TestCase(t, resource.TestStep{
		// As a member of the organization: a platform administrator reads every
		// organization's classes.
		Config: env.ProjectUserSettings().Config() + fmt.Sprintf(`
data "unikorn_file_storage_classes" "all" {}

data "unikorn_file_storage_classes" "region" {
  region_id = %[1]s
}

data "unikorn_file_storage_classes" "nfsv3" {
  region_id = %[1]s
  protocol  = "nfsv3"
}

data "unikorn_file_storage_classes" "named" {
  name = "sandbox-dedicated"
}

data "unikorn_file_storage_classes" "none" {
  name = "no-such-class"
}
`, acctest.Quote(env.RegionID)),
		ConfigStateChecks: []statecheck.StateCheck{
			// The foreign organization's class is never listed.
			ids("data.unikorn_file_storage_classes.all", sandbox.StorageClassStandardID, sandbox.StorageClassLegacyID,
				sandbox.StorageClassDedicatedID, sandbox.StorageClassRemoteID),
			ids("data.unikorn_file_storage_classes.region", sandbox.StorageClassStandardID, sandbox.StorageClassLegacyID,
				sandbox.StorageClassDedicatedID),
			ids("data.unikorn_file_storage_classes.nfsv3", sandbox.StorageClassLegacyID, sandbox.StorageClassDedicatedID),
			ids("data.unikorn_file_storage_classes.none"),
			statecheck.ExpectKnownValue("data.unikorn_file_storage_classes.named", tfjsonpath.New("classes"),
				knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
					"id":          knownvalue.StringExact(sandbox.StorageClassDedicatedID),
					"name":        knownvalue.StringExact("sandbox-dedicated"),
					"region_id":   knownvalue.StringExact(sandbox.RegionID),
					"protocols":   knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("nfsv3"), knownvalue.StringExact("nfsv4")}),
					"parallelism": knownvalue.Int64Exact(8),
				})})),
		},
	}))
}
