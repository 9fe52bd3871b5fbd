package diagnostic_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/volumes"
)

func TestComputeExplainsEachKindOfFailure(t *testing.T) {
	t.Parallel()

	tests := map[string]wording{
		"a failed attachment says what the next apply does": {
			err:     &compute.AttachmentFailedError{InstanceID: "x", VolumeID: "v"},
			want:    []string{"failed to attach volume v", "tainted", "terraform untaint", "next apply asks for the attachment again"},
			wantNot: []string{"try once more"},
		},
		"a volume another instance still asks for says a second apply finishes a move": {
			err:  &volumes.AttachedError{VolumeID: "v", InstanceID: "x"},
			want: []string{"does not order the two updates", "the next apply attaches the volume"},
		},
		"a failed detachment says the volume is still on the instance": {
			err:     &compute.AttachmentFailedError{InstanceID: "x", VolumeID: "v", Detaching: true},
			want:    []string{"failed to detach volume v", "still on the instance", "next apply asks compute again"},
			wantNot: []string{"tainted"},
		},
		"a refusal keeps its own advice only": {
			err:     &compute.RefusedError{Reason: "instance x is stopped: only a running instance can be rebooted (start a stopped one instead)"},
			want:    []string{"Instance x is stopped: only a running instance can be rebooted (start a stopped one instead)."},
			wantNot: []string{"could not be reached"},
		},
		"a token without service rights is pointed at the compute back end": {
			err: &compute.ServiceRightsError{Err: fmt.Errorf("creating server: %w",
				&unikorn.APIError{StatusCode: http.StatusForbidden, Code: "forbidden", Method: http.MethodPost, Path: "/api/v2/servers"})},
			want:    []string{"POST /api/v2/servers: 403 forbidden", "only a service account or a platform administrator", `instance_api = "compute"`, "compute_endpoint"},
			wantNot: []string{"could not be reached"},
		},
		"an over-quota update says nothing changed, not that nothing was created": {
			err:     &compute.QuotaError{Err: apiErr, Charged: true},
			want:    []string{"The instance is unchanged"},
			wantNot: []string{"Nothing was created"},
		},
		"an over-quota create names the quota the body names": {
			err: &compute.QuotaError{Err: &unikorn.APIError{StatusCode: http.StatusForbidden, Code: "forbidden",
				Description: "total servers allocation of 11 would exceed quota limit of 10", Method: http.MethodPost, Path: "/api/v2/instances"}},
			want: []string{"Nothing was created", "raise the `servers` quota"},
		},
		"a failed undo of a taken name does not claim the quota was left alone": {
			err: &compute.CompensationError{
				Err:  &compute.NameTakenError{Name: "web", NetworkID: "n", InstanceID: "x", Err: apiErr},
				Undo: "releasing the quota allocation a", UndoErr: errors.New("connection reset"),
			},
			want:    []string{"releasing the quota allocation a", "Quota may still be charged"},
			wantNot: []string{"no quota was charged"},
		},
		"a taken name explains create_before_destroy": {
			err:  &compute.NameTakenError{Name: "web", NetworkID: "n", InstanceID: "x", OrganizationID: "o", ProjectID: "p", Err: apiErr},
			want: []string{"create_before_destroy", "unique per network", "terraform import"},
		},
		"lost access keeps the instance": {
			err:     &compute.AccessError{InstanceID: "x", What: "its network n", Err: apiErr},
			want:    []string{"cannot be read with these credentials", "not known to be gone", "keeps the instance"},
			wantNot: []string{"does not exist"},
		},
		"a lost charge names the instance": {
			err:  &compute.ChargeUnknownError{InstanceID: "x", Err: errors.New("connection reset")},
			want: []string{"quota may have been charged for instance x", "platform operator"},
		},
		"a missing instance is said to be missing": {
			err:  compute.ErrNotFound,
			want: []string{"The instance does not exist"},
		},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			test.check(t, diagnostic.Compute("Unable to do it", test.err))
		})
	}
}
