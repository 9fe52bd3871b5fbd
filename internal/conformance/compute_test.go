package conformance

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// isComputeMethod tells the client methods that call compute from the others, so
// that a sandbox without a compute service waives exactly those.
func isComputeMethod(name string) bool {
	return strings.Contains(name, "Instance") || strings.Contains(name, "Compute")
}

// computeCatalogue lists what compute offers an ordinary project user.
func (r *run) computeCatalogue(t *testing.T) {
	ctx := t.Context()

	version, err := call(r.coverage, r.user.GetComputeVersion)(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, version.Version)

	images := r.requireCatalogue(t, r.user.ListComputeRegions, r.user.ListComputeFlavors, r.user.ListComputeImages,
		sandbox.FlavorStandardID, sandbox.ImageUbuntuID)
	require.NotContains(t, imageIDs(images), sandbox.ImageKubernetesID, "compute offers no image built for Kubernetes")
}

// computeInstance drives one instance through its whole life as a project user:
// create, conflict, list, update, power, access, snapshot and delete.
func (r *run) computeInstance(t *testing.T) {
	ctx := t.Context()
	name := "conformance-instance"

	create := unikorn.InstanceCreate{
		Metadata: unikorn.WriteMetadata{Name: name, Tags: unikorn.Tags{{Name: "conformance", Value: "yes"}}},
		Spec: unikorn.InstanceCreateSpec{
			InstanceSpec: unikorn.InstanceSpec{
				FlavorID:                  sandbox.FlavorStandardID,
				ImageID:                   sandbox.ImageUbuntuID,
				Networking:                r.networking(),
				SSHCertificateAuthorityID: r.caID,
				UserData:                  base64.StdEncoding.EncodeToString([]byte("#cloud-config\n")),
			},
			OrganizationID: sandbox.OrganizationID,
			ProjectID:      sandbox.ProjectID,
			NetworkID:      r.networkID,
		},
	}

	created, err := call(r.coverage, r.user.CreateInstance)(ctx, create)
	require.NoError(t, err)

	id := created.Metadata.ID

	_, err = call(r.coverage, r.user.CreateInstance)(ctx, create)
	require.True(t, unikorn.IsConflict(err), "a duplicate instance name is a 409, got %v", err)

	listed, err := call(r.coverage, r.user.ListInstances)(ctx, unikorn.InstanceQuery{
		Tags:            create.Metadata.Tags,
		OrganizationIDs: []string{sandbox.OrganizationID},
		ProjectIDs:      []string{sandbox.ProjectID},
		RegionIDs:       []string{sandbox.RegionID},
		NetworkIDs:      []string{r.networkID},
	})
	require.NoError(t, err)
	require.Equal(t, []string{id}, instanceIDs(listed))

	waitFor := func(what, power string) {
		t.Helper()

		r.poll(t, "the instance to be "+what, func() bool {
			instance, err := call(r.coverage, r.user.GetInstance)(ctx, id)
			require.NoError(t, err)

			return instance.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned && instance.Status.PowerState == power
		})
	}

	waitFor("running", unikorn.PowerRunning)

	// The update attaches a volume, so that the instance's set and its attachment rows
	// are judged on the wire by the schemas of the compute that attaches volumes.
	volumeID := r.attachableVolume(t)

	update := unikorn.InstanceUpdate{
		Metadata: unikorn.WriteMetadata{Name: name, Description: "updated", Tags: create.Metadata.Tags},
		Spec:     create.Spec.InstanceSpec,
	}
	update.Spec.Volumes = &[]string{volumeID}

	updated, err := call(r.coverage, r.user.UpdateInstance)(ctx, id, update)
	require.NoError(t, err)
	require.Equal(t, "updated", updated.Metadata.Description)
	waitFor("running after the update", unikorn.PowerRunning)
	r.poll(t, "the volume to be attached", func() bool {
		instance, err := call(r.coverage, r.user.GetInstance)(ctx, id)
		require.NoError(t, err)

		return len(instance.Status.Volumes) == 1 && instance.Status.Volumes[0].Device != ""
	})

	update.Metadata.Name = "renamed"
	_, err = call(r.coverage, r.user.UpdateInstance)(ctx, id, update)
	require.True(t, unikorn.IsUnprocessable(err), "a rename is a 422, got %v", err)

	require.NoError(t, call(r.coverage, r.user.StopInstance)(ctx, id))
	waitFor("stopped", unikorn.PowerStopped)
	require.NoError(t, call(r.coverage, r.user.StartInstance)(ctx, id))
	waitFor("running again", unikorn.PowerRunning)

	for _, hard := range []bool{false, true} {
		require.NoError(t, call(r.coverage, r.user.RebootInstance)(ctx, id, hard))
		waitFor("running after a reboot", unikorn.PowerRunning)
	}

	key, err := call(r.coverage, r.user.GetInstanceSSHKey)(ctx, id)
	require.NoError(t, err)
	require.NotEmpty(t, key.PrivateKey)

	session, err := call(r.coverage, r.user.GetInstanceConsoleSession)(ctx, id)
	require.NoError(t, err)
	require.NotEmpty(t, session.URL)

	tail, err := call(r.coverage, r.user.GetInstanceConsoleOutput)(ctx, id, 2)
	require.NoError(t, err)
	require.Len(t, strings.Split(tail.Contents, "\n"), 2)

	image, err := call(r.coverage, r.user.SnapshotInstance)(ctx, id, unikorn.InstanceSnapshotCreate{
		Metadata: unikorn.WriteMetadata{Name: "conformance-instance-snapshot"},
	})
	require.NoError(t, err)
	require.NotEqual(t, unikorn.ImageReady, image.Status.State)

	r.poll(t, "the instance snapshot to be ready", func() bool {
		got, err := call(r.coverage, r.client.GetImage)(ctx, sandbox.OrganizationID, sandbox.RegionID, image.Metadata.ID)
		require.NoError(t, err)

		return got.Status.State == unikorn.ImageReady
	})
	require.NoError(t, call(r.coverage, r.client.DeleteImage)(ctx, sandbox.OrganizationID, sandbox.RegionID, image.Metadata.ID))

	require.NoError(t, call(r.coverage, r.user.DeleteInstance)(ctx, id))
	r.poll(t, "the instance to be gone", func() bool {
		_, err := call(r.coverage, r.user.GetInstance)(ctx, id)
		if unikorn.IsNotFound(err) {
			return true
		}

		require.NoError(t, err)

		return false
	})

	// The instance's server let the volume go before it went; the volume outlives it.
	r.deleteVolume(t, volumeID)
}

func instanceIDs(instances []unikorn.Instance) []string {
	return ids(instances, func(i unikorn.Instance) string { return i.Metadata.ID })
}

// The compute document judges what is sent under its prefix, and only that: the same
// catalogue path without the prefix is region's.
func TestComputeContractRouting(t *testing.T) {
	dir := os.Getenv(openAPIDirEnv)
	if dir == "" {
		t.Skipf("%s is not set", openAPIDirEnv)
	}

	c := loadContract(t, dir)

	instance := `{"metadata":{"id":"` + missingID + `","name":"web","organizationId":"` + sandbox.OrganizationID +
		`","projectId":"` + sandbox.ProjectID + `","creationTime":"2026-11-22T10:00:00Z","provisioningStatus":"provisioned",` +
		`"healthStatus":"healthy"},"spec":{"flavorId":"` + sandbox.FlavorStandardID + `","imageId":"` + sandbox.ImageUbuntuID + `"},` +
		`"status":{"regionId":"r","networkId":"n","powerState":"Running"%s}}`

	check := func(path, body string) []violation {
		request, err := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://sandbox"+path, nil)
		require.NoError(t, err)

		return c.check(t.Context(), exchange{
			request:      request,
			status:       http.StatusOK,
			header:       http.Header{"Content-Type": {"application/json"}},
			responseBody: []byte(body),
		}, false)
	}

	require.Empty(t, check(computePrefix+"/api/v2/instances/"+missingID, fmt.Sprintf(instance, "")))

	violations := check(computePrefix+"/api/v2/instances/"+missingID, fmt.Sprintf(instance, `,"infrastructureRef":"x"`))
	require.Len(t, violations, 1)
	require.Equal(t, "compute GET /api/v2/instances/{instanceID}", violations[0].operation)
	require.Contains(t, violations[0].message, "infrastructureRef")

	// Region has no instances, so without the prefix nothing declares the call.
	violations = check("/api/v2/instances/"+missingID, fmt.Sprintf(instance, ""))
	require.Len(t, violations, 1)
	require.Contains(t, violations[0].message, "no document declares this operation")

	require.Empty(t, check("/api/v1/organizations/"+sandbox.OrganizationID+"/regions", "[]"), "region's catalogue stays region's")
	require.Empty(t, check(computePrefix+"/api/v1/organizations/"+sandbox.OrganizationID+"/regions", "[]"), "compute's catalogue is compute's")
}
