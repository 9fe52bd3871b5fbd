package unikorn

import (
	"context"
	"maps"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// volumeEndpoints are the rows of endpoints for volumes and their classes.
var volumeEndpoints = map[string]endpointCase{
	"ListVolumes": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListVolumes(ctx, VolumeQuery{
				Tags: Tags{{Name: "tier", Value: "db"}}, OrganizationIDs: []string{"o-1"}, ProjectIDs: []string{"p-1"},
				RegionIDs: []string{"r-1"}, NetworkIDs: []string{"n-1"},
			})
		},
		service: regionService, method: http.MethodGet, path: "/api/v2/volumes",
		query:  "networkID=n-1&organizationID=o-1&projectID=p-1&regionID=r-1&tag=tier%3Ddb",
		status: http.StatusOK, reply: listReply,
	},
	"CreateVolume": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateVolume(ctx, VolumeCreate{Metadata: writeMetadata, Spec: VolumeSpec{NetworkID: "n-1", VolumeClassID: "fast", SizeGiB: 20}})
		},
		service: regionService, method: http.MethodPost, path: "/api/v2/volumes",
		body:   `{"metadata":` + writeMetadataJSON + `,"spec":{"networkId":"n-1","volumeClassId":"fast","sizeGiB":20}}`,
		status: http.StatusAccepted, reply: objectReply,
	},
	"GetVolume": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetVolume(ctx, "v-1") },
		service: regionService, method: http.MethodGet, path: "/api/v2/volumes/v-1",
		status: http.StatusOK, reply: objectReply,
	},
	"UpdateVolume": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateVolume(ctx, "v-1", VolumeUpdate{Metadata: writeMetadata})
		},
		service: regionService, method: http.MethodPut, path: "/api/v2/volumes/v-1",
		body:   `{"metadata":` + writeMetadataJSON + `}`,
		status: http.StatusOK, reply: objectReply,
	},
	"DeleteVolume": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteVolume(ctx, "v-1") },
		service: regionService, method: http.MethodDelete, path: "/api/v2/volumes/v-1",
		status: http.StatusAccepted,
	},
	"ListVolumeClasses": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListVolumeClasses(ctx, "r-1", "r-2") },
		service: regionService, method: http.MethodGet, path: "/api/v2/volumeclasses",
		query: "regionID=r-1&regionID=r-2", status: http.StatusOK, reply: listReply,
	},
}

func init() {
	maps.Copy(endpoints, volumeEndpoints)
}

// An instance update that leaves the volumes out keeps them, and one that sends an
// empty set detaches them all: the two must not encode alike.
func TestInstanceVolumesTellOmittedFromEmpty(t *testing.T) {
	t.Parallel()

	client, recorders := startServices(t)
	compute := recorders[computeService]
	compute.respond(http.StatusAccepted, objectReply)

	update := InstanceUpdate{Metadata: WriteMetadata{Name: "web"}, Spec: InstanceSpec{FlavorID: "f-1", ImageID: "i-1"}}

	_, err := client.UpdateInstance(t.Context(), "i-1", update)
	require.NoError(t, err)
	assert.JSONEq(t, `{"metadata":{"name":"web"},"spec":{"flavorId":"f-1","imageId":"i-1"}}`, compute.body)

	update.Spec.Volumes = &[]string{}

	_, err = client.UpdateInstance(t.Context(), "i-1", update)
	require.NoError(t, err)
	assert.JSONEq(t, `{"metadata":{"name":"web"},"spec":{"flavorId":"f-1","imageId":"i-1","volumes":[]}}`, compute.body)
}
