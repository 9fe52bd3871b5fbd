package unikorn

import (
	"context"
	"maps"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fileStorageEndpoints are the rows of endpoints for file storage and its classes.
var fileStorageEndpoints = map[string]endpointCase{
	"ListFileStorage": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListFileStorage(ctx, FileStorageQuery{
				Tags: Tags{{Name: "tier", Value: "web"}}, OrganizationIDs: []string{"o-1"}, ProjectIDs: []string{"p-1"}, RegionIDs: []string{"r-1"},
			})
		},
		service: regionService, method: http.MethodGet, path: "/api/v2/filestorage",
		query:  "organizationID=o-1&projectID=p-1&regionID=r-1&tag=tier%3Dweb",
		status: http.StatusOK, reply: listReply,
	},
	"CreateFileStorage": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateFileStorage(ctx, FileStorageCreate{Metadata: writeMetadata, Spec: FileStorageCreateSpec{
				FileStorageSpec: FileStorageSpec{
					SizeGiB:     10,
					StorageType: StorageType{NFS: &NFSStorage{RootSquash: false}},
					Attachments: &StorageAttachments{NetworkIDs: []string{}},
				},
				OrganizationID: "o-1", ProjectID: "p-1", RegionID: "r-1", StorageClassID: "c-1",
			}})
		},
		service: regionService, method: http.MethodPost, path: "/api/v2/filestorage",
		body: `{"metadata":` + writeMetadataJSON + `,"spec":{"sizeGiB":10,"storageType":{"NFS":{"rootSquash":false}},` +
			`"attachments":{"networkIds":[]},"organizationId":"o-1","projectId":"p-1","regionId":"r-1","storageClassId":"c-1"}}`,
		status: http.StatusCreated, reply: objectReply,
	},
	"GetFileStorage": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.GetFileStorage(ctx, "fs-1") },
		service: regionService, method: http.MethodGet, path: "/api/v2/filestorage/fs-1",
		status: http.StatusOK, reply: objectReply,
	},
	"UpdateFileStorage": {
		call: func(ctx context.Context, c *Client) (any, error) {
			day, on := 5, true

			return c.UpdateFileStorage(ctx, "fs-1", FileStorageUpdate{Metadata: writeMetadata, Spec: FileStorageSpec{
				SizeGiB:                          20,
				StorageType:                      StorageType{NFS: &NFSStorage{RootSquash: true}},
				Attachments:                      &StorageAttachments{NetworkIDs: []string{"n-1"}},
				DefaultSnapshotProtectionEnabled: &on,
				SnapshotPolicies: &[]StorageSnapshotPolicy{{
					Name: "monthly", Schedule: StorageSnapshotSchedule{Interval: SnapshotMonthly, TimeOfDay: "01:00Z", DayOfMonth: &day},
					Retention: StorageRetention{Keep: 2},
				}},
			}})
		},
		service: regionService, method: http.MethodPut, path: "/api/v2/filestorage/fs-1",
		body: `{"metadata":` + writeMetadataJSON + `,"spec":{"sizeGiB":20,"storageType":{"NFS":{"rootSquash":true}},` +
			`"attachments":{"networkIds":["n-1"]},"defaultSnapshotProtectionEnabled":true,"snapshotPolicies":[{"name":"monthly",` +
			`"schedule":{"interval":"monthly","timeOfDay":"01:00Z","dayOfMonth":5},"retention":{"keep":2}}]}}`,
		status: http.StatusAccepted, reply: objectReply,
	},
	"DeleteFileStorage": {
		call:    func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteFileStorage(ctx, "fs-1") },
		service: regionService, method: http.MethodDelete, path: "/api/v2/filestorage/fs-1",
		status: http.StatusAccepted,
	},
	"ListStorageClasses": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListStorageClasses(ctx, "r-1", "r-2") },
		service: regionService, method: http.MethodGet, path: "/api/v2/filestorageclasses",
		query: "regionID=r-1&regionID=r-2", status: http.StatusOK, reply: listReply,
	},
}

func init() {
	maps.Copy(endpoints, fileStorageEndpoints)
}

// An update that omits the snapshot policies keeps them, and one that sends an empty
// list clears them: the two must not encode alike.
func TestFileStorageSpecTellsOmittedFromEmpty(t *testing.T) {
	t.Parallel()

	client, recorders := startServices(t)
	region := recorders[regionService]
	region.respond(http.StatusAccepted, objectReply)

	update := FileStorageUpdate{Metadata: WriteMetadata{Name: "fs"}, Spec: FileStorageSpec{SizeGiB: 1}}

	_, err := client.UpdateFileStorage(t.Context(), "fs-1", update)
	require.NoError(t, err)
	assert.JSONEq(t, `{"metadata":{"name":"fs"},"spec":{"sizeGiB":1,"storageType":{}}}`, region.body)

	update.Spec.SnapshotPolicies = &[]StorageSnapshotPolicy{}
	update.Spec.Attachments = &StorageAttachments{NetworkIDs: []string{}}

	_, err = client.UpdateFileStorage(t.Context(), "fs-1", update)
	require.NoError(t, err)
	assert.JSONEq(t, `{"metadata":{"name":"fs"},"spec":{"sizeGiB":1,"storageType":{},"attachments":{"networkIds":[]},"snapshotPolicies":[]}}`, region.body)
}
