package faults_test

import (
	"fmt"
	"strings"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// imageSubject is an image imported from a URL into the organization, waited for
// until ready, then replaced (region cannot change an image, so a new description
// and new tags import it anew), then deleted. Each import is sent once: one whose
// answer was lost is adopted by its name.
func imageSubject() subject {
	return subject{
		name:   "image",
		what:   "an image imported from a URL",
		kept:   "exactly the image in state, none imported twice, none replaced but by the update that asks for it",
		config: imageConfig,
		agree:  imageAgreement,
		// The update replaces the image by design; a create must delete nothing.
		replaceRoutes: []string{"DELETE /api/v1/organizations/{organizationID}/regions/{regionID}/images/{imageID}"},
		replacedIn:    phaseUpdate,
	}
}

// imageTeam is the image's team tag in the phase.
func imageTeam(p phase) string {
	if p == phaseCreate {
		return "a"
	}

	return "b"
}

// imageConfig is the image as the phase wants it: the update changes its tags, which
// replaces it.
func imageConfig(env *acctest.Environment, p phase) string {

	return fmt.Sprintf(`
resource "unikorn_image" "golden" {
  name           = "golden"
  region_id      = %s
  uri            = "https://images.example.com/golden.raw"
  architecture   = "x86_64"
  virtualization = "virtualized"
  os = {
    kernel = "linux"
    family = "debian"
    distro = "ubuntu"
    version = "24.04"
  }
  tags = { team = %q }
}
`, acctest.Quote(env.RegionID), imageTeam(p))
}

// imageAgreement proves that the sandbox's records hold exactly the image in state,
// ready, never two, and that a plan finds nothing to change; after a delete, that they
// hold nothing made.
func imageAgreement(l *life, p phase) {
	l.t.Helper()

	made := l.env.LeftBehind(l.t)

	if p == phaseDelete {
		require.Empty(l.t, made, "no image left")
		require.NotContains(l.t, l.cli.Run("state", "list"), "unikorn_image.", "nothing left in state")

		return
	}

	l.requirePlanEmpty(p)

	require.Len(l.t, made, 1, "exactly the image; the failed runs said:\n%s", strings.Join(l.failures, "\n---\n"))
	require.Equal(l.t, sandbox.ObjectImage, made[0].Kind)
	require.Equal(l.t, "golden", made[0].Name)

	shown := l.cli.Run("state", "show", "unikorn_image.golden")
	require.Contains(l.t, shown, made[0].ID, "the one in state")
	require.Contains(l.t, shown, `"ready"`)
	require.Contains(l.t, shown, fmt.Sprintf("%q", imageTeam(p)))
}
