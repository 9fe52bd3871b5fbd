package identity_test

import (
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// TestAccHeldProjectDeleteSaysWhatHoldsIt deletes a project that a network made
// behind Terraform's back still references: identity keeps the project deleting, the
// destroy ends at the delete timeout with an error naming the network and how to
// find the rest, and once the network is gone, the next destroy completes.
func TestAccHeldProjectDeleteSaysWhatHoldsIt(t *testing.T) {
	env := acctest.New(t)
	env.SkipUnlessSandbox(t)

	admin := env.ClientAs(t, sandbox.AdminToken)

	project := adminConfig(env) + `
resource "unikorn_project" "held" {
  name     = "held"
  timeouts = { delete = "3s" }
}
`

	var projectID string

	var holder *unikorn.Network

	resource.ParallelTest(t, env.TestCase(t,
		resource.TestStep{
			Config: project,
			Check: func(s *terraform.State) error {
				projectID = s.RootModule().Resources["unikorn_project.held"].Primary.ID

				return nil
			},
		},
		resource.TestStep{
			PreConfig: func() {
				var err error
				holder, err = admin.CreateNetwork(t.Context(), unikorn.NetworkCreate{
					Metadata: unikorn.WriteMetadata{Name: "holder"},
					Spec: unikorn.NetworkCreateSpec{
						OrganizationID: sandbox.EmptyOrganizationID, ProjectID: projectID,
						NetworkSpec: unikorn.NetworkSpec{DNSNameservers: []string{}},
						RegionID:    env.RegionID, Prefix: "10.73.0.0/24",
					},
				})
				require.NoError(t, err)
			},
			Config: adminConfig(env),
			ExpectError: regexp.MustCompile(`(?s)project [0-9a-f-]{36} \("held"\) is still being deleted.*` +
				`These\s+are\s+still\s+in\s+it:\s+network\s+"holder"\s+\([0-9a-f-]{36}\).*` +
				`GET\s+/api/v2/networks\?projectID=.*run\s+the\s+destroy\s+again`),
		},
		resource.TestStep{
			PreConfig: func() {
				require.NoError(t, admin.DeleteNetwork(t.Context(), holder.Metadata.ID))
				require.Eventually(t, func() bool {
					_, err := admin.GetNetwork(t.Context(), holder.Metadata.ID)
					return unikorn.IsNotFound(err)
				}, 10*time.Second, 50*time.Millisecond)
			},
			Config: adminConfig(env),
			Check: func(*terraform.State) error {
				assert.Empty(t, env.LeftBehind(t), "the project is gone, and the network")

				return nil
			},
		},
	))
}
