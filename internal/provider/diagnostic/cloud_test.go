package diagnostic_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/seal"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// mappers are every family's mapper, by the façade whose errors it words.
var mappers = map[string]func(string, error) diag.Diagnostics{
	"compute":       diagnostic.Compute,
	"image":         diagnostic.Image,
	"networking":    diagnostic.Networking,
	"loadbalancing": diagnostic.LoadBalancing,
	"storage":       diagnostic.Storage,
	"identity":      diagnostic.Identity,
}

// wordsAlso is the family whose failures a mapper words besides its own: an image
// made of an instance's disk fails as the instance's back end does.
var wordsAlso = map[string]string{"image": "compute"}

// apiErr is an answer of region's API, which every family may meet.
var apiErr = &unikorn.APIError{StatusCode: http.StatusNotFound, Code: "not_found", Description: "resource not found",
	Method: http.MethodPost, Path: "/api/v2/servers/x/stop"}

// wording is what one diagnostic of an error should say, and not say.
type wording struct {
	err     error
	want    []string
	wantNot []string
}

// check holds diags, made for "Unable to do it", to w: one diagnostic of that summary.
func (w wording) check(t *testing.T, diags diag.Diagnostics) {
	t.Helper()
	require.Len(t, diags, 1)
	assert.Equal(t, "Unable to do it", diags[0].Summary())

	for _, text := range w.want {
		assert.Contains(t, diags[0].Detail(), text)
	}

	for _, text := range w.wantNot {
		assert.NotContains(t, diags[0].Detail(), text)
	}
}

// A failure every family shares reads the same whichever family met it: each mapper
// hands it to Cloud.
func TestAFailureEveryFamilySharesReadsTheSameInEveryFamily(t *testing.T) {
	t.Parallel()

	tests := map[string]wording{
		"an API answer is shown with advice for its status": {
			err:  fmt.Errorf("asking the cloud to stop instance x: %w", apiErr),
			want: []string{"POST /api/v2/servers/x/stop: 404 not_found", "does not exist or is not visible"},
		},
		"a wait that ran out says the cloud may still finish": {
			err:     &cloud.WaitError{What: "instance x to be Stopped", Err: context.DeadlineExceeded},
			want:    []string{"Gave up waiting for instance x to be Stopped", "may still finish", "the resource's `timeouts`"},
			wantNot: []string{"tainted", "raise the provider's request_timeout"},
		},
		"a connection failure points at the endpoint": {
			err:  fmt.Errorf("listing servers: %w", refused(t)),
			want: []string{"connection refused", "could not be reached"},
		},
		"an interrupted wait does not advise a longer timeout": {
			err:     &cloud.WaitError{What: "instance x to be provisioned and running", Err: context.Canceled},
			want:    []string{"interrupted", "Run Terraform again"},
			wantNot: []string{"Raise the timeout"},
		},
		"a wait that ran out among failed reads names the last failure": {
			err:  &cloud.WaitError{What: "instance x to be Stopped", Err: context.DeadlineExceeded, LastFailure: apiErr},
			want: []string{"the last read failed", "404 not_found"},
		},
		"an object still in use after the delete's wait is kept": {
			err:  &cloud.InUseError{Kind: "network", ID: "n", Users: "instance x", Err: apiErr},
			want: []string{"Nothing was deleted", "raise the delete timeout"},
		},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			want := diagnostic.Cloud("Unable to do it", test.err)
			test.check(t, want)

			for family, mapper := range mappers {
				assert.Equal(t, want, mapper("Unable to do it", test.err), family)
			}
		})
	}
}

// A family's mapper words its own façade's failures only: another family's error
// reaching it (which no façade returns today) reads as Cloud words any error, not in
// the other family's words.
func TestAFamilysMapperWordsOnlyItsOwnFailures(t *testing.T) {
	t.Parallel()

	account := &identity.ServiceAccount{}
	account.ID = "s"

	owned := map[string]error{
		"compute":       fmt.Errorf("reading: %w", compute.ErrNotFound),
		"image":         &image.ImportFailedError{ImageID: "i", URI: "https://images.example.com/i.raw", Removed: true},
		"networking":    &networking.NetworkQuotaError{Err: errors.New("total networks allocation of 2 would exceed quota")},
		"identity":      &identity.AdoptedError{ServiceAccount: account, Err: errors.New("connection reset")},
		"loadbalancing": &loadbalancing.GoneError{ID: "l"},
		"storage":       &storage.ProvisioningFailedError{StorageID: "f"},
	}

	for owner, err := range owned {
		own := mappers[owner]("Unable to do it", err)
		require.NotEqual(t, diagnostic.Cloud("Unable to do it", err), own, "%s words its own failure", owner)

		for family, mapper := range mappers {
			if family == owner || wordsAlso[family] == owner {
				continue
			}

			assert.Equal(t, diagnostic.Cloud("Unable to do it", err), mapper("Unable to do it", err),
				"%s words a failure of %s", family, owner)
		}
	}
}

func TestNetworkingNamesTheNetworksQuota(t *testing.T) {
	t.Parallel()

	diags := diagnostic.Networking("Unable to create the network",
		&networking.NetworkQuotaError{Err: errors.New("total networks allocation of 2 would exceed quota")})
	require.Len(t, diags, 1)
	assert.Contains(t, diags[0].Detail(), "Nothing was created")
	assert.Contains(t, diags[0].Detail(), "raise the `networks` quota")
}

// A service account adopted without its token is a warning, not a failure: the
// account exists and is kept.
func TestIdentityWarnsOfAnAccountAdoptedWithoutItsToken(t *testing.T) {
	t.Parallel()

	account := &identity.ServiceAccount{}
	account.ID, account.Name = "s", "ci"

	diags := diagnostic.Identity("Unable to create the service account",
		&identity.AdoptedError{ServiceAccount: account, Err: errors.New("connection reset")})
	require.Len(t, diags, 1)
	assert.Equal(t, diag.SeverityWarning, diags[0].Severity())
	assert.Equal(t, "Service account created without its token", diags[0].Summary())
	assert.Contains(t, diags[0].Detail(), "rotation_trigger")
}

func TestASealedTokenThatDoesNotOpenSaysWhy(t *testing.T) {
	t.Parallel()

	at := path.Root("sealed_token")

	wrongKey := diagnostic.SealedToken(at, "s", fmt.Errorf("opening: %w", seal.ErrWrongKey))
	assert.Equal(t, "Sealed token does not open with this key", wrongKey.Summary())

	garbled := diagnostic.SealedToken(at, "s", errors.New("not base64"))
	assert.Equal(t, "Not a sealed token", garbled.Summary())
	assert.Contains(t, garbled.Detail(), "not base64")
}
