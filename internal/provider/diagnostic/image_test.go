package diagnostic_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
)

func TestImageExplainsEachKindOfFailure(t *testing.T) {
	t.Parallel()

	tests := map[string]wording{
		"a failed snapshot says what to do": {
			err:     &image.SnapshotFailedError{InstanceID: "x", ImageID: "y"},
			want:    []string{"The cloud failed to snapshot instance x: image y is failed.", "Delete the failed image"},
			wantNot: []string{"could not be reached"},
		},
		"a failed import that left nothing says so": {
			err:  &image.ImportFailedError{ImageID: "y", URI: "https://images.example.com/y.qcow2", Removed: true},
			want: []string{"image y is failed, and it was deleted", "Nothing is left behind", "raw disk image"},
		},
		"a failed import left behind is replaced": {
			err:  &image.ImportFailedError{ImageID: "y", URI: "https://images.example.com/y.raw"},
			want: []string{"left in the organization's images", "tainted"},
		},
		"a snapshot's instance back end words its own failures": {
			err:  compute.ErrNotFound,
			want: []string{"The instance does not exist"},
		},
	}

	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			test.check(t, diagnostic.Image("Unable to do it", test.err))
		})
	}
}

// A name region would refuse is pointed at the attribute.
func TestImageNamesTheAttributeOfAnInvalidName(t *testing.T) {
	t.Parallel()

	diags := diagnostic.Image("Unable to import the image", &image.NameError{Err: image.ValidateName("-golden")})
	require.Len(t, diags, 1)
	assert.Equal(t, "Invalid image name", diags[0].Summary())
	assert.Contains(t, diags[0].Detail(), "not a valid image name")
}
