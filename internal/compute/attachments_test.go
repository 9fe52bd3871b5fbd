package compute

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// An instance's volumes are attached once every one it asks for is provisioned and
// every other one is gone; a failed attachment of one it asks for ends the wait.
func TestAttachedWaitsForEveryVolumeAndNoOther(t *testing.T) {
	t.Parallel()

	row := func(id, status string) Attachment {
		return Attachment{VolumeID: id, ProvisioningStatus: status, Device: "/dev/vdb"}
	}
	instance := &Instance{ID: "i-1", Spec: Spec{VolumeIDs: []string{"v-1", "v-2"}}}

	for name, tc := range map[string]struct {
		rows []Attachment
		done bool
	}{
		"none reported yet":       {},
		"one pending":             {rows: []Attachment{row("v-1", unikorn.ProvisioningProvisioned), row("v-2", unikorn.ProvisioningPending)}},
		"both attached":           {rows: []Attachment{row("v-1", unikorn.ProvisioningProvisioned), row("v-2", unikorn.ProvisioningProvisioned)}, done: true},
		"another still detaching": {rows: []Attachment{row("v-1", unikorn.ProvisioningProvisioned), row("v-2", unikorn.ProvisioningProvisioned), row("v-3", unikorn.ProvisioningDeprovisioning)}},
	} {
		instance.Attachments = tc.rows
		done, err := instance.attached()
		require.NoError(t, err, name)
		assert.Equal(t, tc.done, done, name)
	}

	instance.Attachments = []Attachment{{VolumeID: "v-2", ProvisioningStatus: unikorn.ProvisioningError, Message: "no such device"}}
	_, err := instance.attached()

	var failed *AttachmentFailedError
	require.ErrorAs(t, err, &failed)
	assert.Equal(t, "v-2", failed.VolumeID)
	assert.Contains(t, err.Error(), "no such device")
}

// A volume the instance no longer asks for that failed to come off it does not move on
// by itself: the wait ends at once, saying the detachment failed, rather than at its
// timeout.
func TestAFailedDetachmentEndsTheWait(t *testing.T) {
	t.Parallel()

	instance := &Instance{ID: "i-1", Spec: Spec{VolumeIDs: []string{"v-1"}}, Attachments: []Attachment{
		{VolumeID: "v-1", ProvisioningStatus: unikorn.ProvisioningProvisioned, Device: "/dev/vdb"},
		{VolumeID: "v-2", ProvisioningStatus: unikorn.ProvisioningError, Message: "device busy"},
	}}

	_, err := instance.attached()

	var failed *AttachmentFailedError
	require.ErrorAs(t, err, &failed)
	assert.Equal(t, "v-2", failed.VolumeID)
	assert.True(t, failed.Detaching)
	assert.Contains(t, err.Error(), "failed to detach volume v-2")
	assert.Contains(t, err.Error(), "device busy")
}

// An update sends the whole set, an empty one to detach every volume, and leaves it
// out only for an instance that has none and gets none.
func TestVolumesSpecSendsTheWholeSet(t *testing.T) {
	t.Parallel()

	assert.Nil(t, volumesSpec(nil, nil))
	assert.Equal(t, &[]string{}, volumesSpec([]string{"v-1"}, nil))
	assert.Equal(t, &[]string{"v-1", "v-2"}, volumesSpec(nil, []string{"v-2", "v-1"}))

	current := &Instance{Spec: Spec{VolumeIDs: []string{"v-1"}}}
	assert.False(t, needsUpdate(current, Spec{VolumeIDs: []string{"v-1"}}))
	assert.True(t, needsUpdate(current, Spec{}), "detaching is an update")
	assert.True(t, needsUpdate(current, Spec{VolumeIDs: []string{"v-1", "v-2"}}))
	assert.Equal(t, []string{"v-2"}, added([]string{"v-1"}, []string{"v-1", "v-2"}))
}

// The region back end refuses volumes, beside what else its validation found, and
// leaves an instance without volumes alone.
func TestRegionRefusesVolumes(t *testing.T) {
	t.Parallel()

	require.NoError(t, regionRefusesVolumes(Spec{}, nil))

	err := regionRefusesVolumes(Spec{VolumeIDs: []string{"v-1"}}, &ValidationError{Problems: []Problem{{Field: FieldImageID}}})

	var problems *ValidationError
	require.ErrorAs(t, err, &problems)
	assert.Equal(t, []Field{FieldImageID, FieldVolumeIDs}, []Field{problems.Problems[0].Field, problems.Problems[1].Field})

	other := errors.New("unreachable")
	assert.Equal(t, other, regionRefusesVolumes(Spec{VolumeIDs: []string{"v-1"}}, other))
}

// Compute's instance with volumes reads back with its set and each attachment.
func TestInstanceFromComputeReadsItsVolumes(t *testing.T) {
	t.Parallel()

	volumes := []string{"v-2", "v-1"}
	wire := &unikorn.Instance{Spec: unikorn.InstanceSpec{Volumes: &volumes}, Status: unikorn.InstanceStatus{
		Volumes: []unikorn.InstanceVolumeStatus{{ID: "v-1", ProvisioningStatus: unikorn.ProvisioningProvisioned, Device: "/dev/vdb", Message: "volume attached"}},
	}}

	instance := instanceFromCompute(wire)
	assert.Equal(t, []string{"v-1", "v-2"}, instance.Spec.VolumeIDs)
	assert.Equal(t, []Attachment{{VolumeID: "v-1", ProvisioningStatus: unikorn.ProvisioningProvisioned, Device: "/dev/vdb", Message: "volume attached"}},
		instance.Attachments)
	assert.Equal(t, &[]string{"v-1", "v-2"}, instanceSpec(instance.Spec, nil).Volumes)
}
