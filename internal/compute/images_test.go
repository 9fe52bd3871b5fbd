package compute_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func ignoreProgress(string) {}

// snapshotImage makes an image of instance called name.
func (e *env) snapshotImage(t *testing.T, instance *compute.Instance, name string) *image.Image {
	t.Helper()

	made, err := e.images.Snapshot(t.Context(), compute.SnapshotOf(compute.NewRegionInstances(e.service), instance,
		compute.SnapshotRequest{Name: name}, ignoreProgress), ignoreProgress)
	require.NoError(t, err)

	return made
}

func TestSnapshotImageAdoptsTheImageOfALostAnswer(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	// An earlier image of the same name and instance is not the one this snapshot makes.
	earlier, err := e.service.Snapshot(t.Context(), instance.Ref(), compute.SnapshotRequest{Name: "golden"}, ignoreProgress)
	require.NoError(t, err)

	network := &harshNetwork{lose: 1, loseMethod: http.MethodPost, losePath: "/api/v2/servers/" + instance.ServerID + "/snapshot"}
	service := e.serviceOver(t, network)

	made, err := e.imagesOver(t, network).Snapshot(t.Context(), compute.SnapshotOf(compute.NewRegionInstances(service), instance,
		compute.SnapshotRequest{Name: "golden", Tags: map[string]string{"role": "web"}}, ignoreProgress), ignoreProgress)
	require.NoError(t, err)
	assert.Zero(t, network.lose, "the answer was lost")

	assert.NotEqual(t, earlier.ID, made.ID, "the earlier image is not adopted")
	assert.Equal(t, unikorn.ImageReady, made.Status)
	assert.Equal(t, image.Image{
		ID: made.ID, Name: "golden", OrganizationID: sandbox.OrganizationID, RegionID: sandbox.RegionID,
		InstanceID: instance.ID, Status: unikorn.ImageReady, CreationTime: made.CreationTime, Tags: map[string]string{"role": "web"},
		Spec: made.Spec,
	}, *made)
	assert.Len(t, e.ImagesNamed(t, "golden"), 2, "the snapshot was sent once")
}

func TestSnapshotImageRefusedMakesNothing(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	made, err := e.images.Snapshot(t.Context(), compute.SnapshotOf(compute.NewRegionInstances(e.service), instance,
		compute.SnapshotRequest{Name: "-golden"}, ignoreProgress), ignoreProgress)
	require.Error(t, err)
	assert.Nil(t, made)

	var problems *compute.ValidationError
	assert.ErrorAs(t, err, &problems)
}

func TestDeleteImageWaitsOutTheInstancesBootedFromIt(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	made := e.snapshotImage(t, instance, "golden")

	ref := image.Ref{ID: made.ID, OrganizationID: made.OrganizationID, RegionID: made.RegionID}

	spec := standardSpec("restored")
	spec.ImageID = made.ID
	restored := e.create(t, spec)

	// While an instance boots from it, region refuses the delete until time runs out.
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()

	var inUse *cloud.InUseError
	require.ErrorAs(t, e.images.Delete(ctx, ref, time.Time{}), &inUse)
	assert.Equal(t, "image", inUse.Kind)

	read, err := e.images.Read(t.Context(), ref)
	require.NoError(t, err)
	require.NotNil(t, read, "nothing was deleted")

	// Once the instance is going, the delete goes through and waits for the 404.
	deleted := make(chan error, 1)

	go func() { deleted <- e.images.Delete(t.Context(), ref, time.Time{}) }()

	require.NoError(t, e.service.Delete(t.Context(), restored.Ref(), restored.AllocationID))
	require.NoError(t, <-deleted)

	read, err = e.images.Read(t.Context(), ref)
	require.NoError(t, err)
	assert.Nil(t, read, "the image is gone")
	assert.NoError(t, e.images.Delete(t.Context(), ref, time.Time{}), "an image already gone is deleted")
}

// A delete told the image's creation time (a resource keeps it with its state) goes
// out without reading the image first: past the read lag, a 404 after it is definite.
func TestDeleteImageOfKnownAgeSendsTheDeleteFirst(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	for known, first := range map[bool]string{false: http.MethodGet, true: http.MethodDelete} {
		made := e.snapshotImage(t, instance, "golden")
		ref := image.Ref{ID: made.ID, OrganizationID: made.OrganizationID, RegionID: made.RegionID}

		created := time.Time{}
		if known {
			created = made.CreationTime
		}

		sent := &methodLog{}
		require.NoError(t, e.imagesOver(t, sent).Delete(t.Context(), ref, created))
		require.NotEmpty(t, sent.methods)
		assert.Equal(t, first, sent.methods[0], "creation time known: %v", known)
	}
}

// methodLog records the methods of the requests that pass through it, in order.
type methodLog struct {
	mu      sync.Mutex
	methods []string
}

func (l *methodLog) RoundTrip(request *http.Request) (*http.Response, error) {
	l.mu.Lock()
	l.methods = append(l.methods, request.Method)
	l.mu.Unlock()

	return http.DefaultTransport.RoundTrip(request)
}

func TestFindImageLooksInEveryRegion(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	instance := e.create(t, standardSpec("web"))

	made := e.snapshotImage(t, instance, "golden")

	found, err := e.images.Find(t.Context(), sandbox.OrganizationID, made.ID)
	require.NoError(t, err)
	assert.Equal(t, made, found)

	missing, err := e.images.Find(t.Context(), sandbox.OrganizationID, "f0000000-0000-4000-8000-000000000000")
	require.NoError(t, err)
	assert.Nil(t, missing, "an image no region has is none")
}
