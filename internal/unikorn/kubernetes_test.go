package unikorn

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

const kubernetesService = "kubernetes"

var (
	three, one = 3, 1
	cluster    = KubernetesClusterWrite{Metadata: writeMetadata, Spec: KubernetesClusterSpec{
		RegionID: "r-1", ClusterManagerID: "m-1", Version: "v1.31.0",
		Features:     &KubernetesClusterFeatures{HardwareEnablement: false},
		ControlPlane: &KubernetesClusterControlPlane{FlavorID: "f-1", Replicas: &three},
		WorkloadPools: []KubernetesClusterPool{{
			Name: "general", Machine: KubernetesMachinePool{Replicas: &three, FlavorID: "f-2", Disk: &KubernetesVolume{Size: 50}},
			Autoscaling: &KubernetesClusterAutoscaling{MinimumReplicas: one},
		}},
		AutoUpgrade: &KubernetesClusterAutoUpgrade{Enabled: true, DaysOfWeek: &KubernetesClusterUpgradeDay{
			Monday: &KubernetesClusterUpgradeWindow{Start: 22, End: 6},
		}},
		API:        &KubernetesClusterAPI{AllowedPrefixes: []string{"10.0.0.0/8"}},
		Networking: &KubernetesClusterNetwork{NodePrefix: "192.168.0.0/24"},
	}}
)

const clusterJSON = `{"metadata":` + writeMetadataJSON + `,"spec":{"regionId":"r-1","clusterManagerId":"m-1","version":"v1.31.0",` +
	`"autoUpgrade":{"enabled":true,"daysOfWeek":{"monday":{"start":22,"end":6}}},"features":{"hardwareEnablement":false},` +
	`"controlPlane":{"flavorId":"f-1","replicas":3},"workloadPools":[{"name":"general","machine":{"replicas":3,"flavorId":"f-2",` +
	`"disk":{"size":50}},"autoscaling":{"minimumReplicas":1}}],"api":{"allowedPrefixes":["10.0.0.0/8"]},` +
	`"networking":{"nodePrefix":"192.168.0.0/24"}}}`

// kubernetesEndpoints are the rows of endpoints for the Kubernetes service.
var kubernetesEndpoints = map[string]endpointCase{
	"ListKubernetesClusters": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListKubernetesClusters(ctx, "o-1", Tags{{Name: "tier", Value: "web"}})
		},
		service: kubernetesService, method: http.MethodGet, path: "/api/v1/organizations/o-1/clusters",
		query: "tag=tier%3Dweb", status: http.StatusOK, reply: listReply,
	},
	"CreateKubernetesCluster": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateKubernetesCluster(ctx, "o-1", "p-1", cluster)
		},
		service: kubernetesService, method: http.MethodPost, path: "/api/v1/organizations/o-1/projects/p-1/clusters",
		body: clusterJSON, status: http.StatusAccepted, reply: objectReply,
	},
	"UpdateKubernetesCluster": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.UpdateKubernetesCluster(ctx, "o-1", "p-1", "c-1", cluster)
		},
		service: kubernetesService, method: http.MethodPut, path: "/api/v1/organizations/o-1/projects/p-1/clusters/c-1",
		body: clusterJSON, status: http.StatusAccepted,
	},
	"DeleteKubernetesCluster": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeleteKubernetesCluster(ctx, "o-1", "p-1", "c-1")
		},
		service: kubernetesService, method: http.MethodDelete, path: "/api/v1/organizations/o-1/projects/p-1/clusters/c-1",
		status: http.StatusAccepted,
	},
	"GetKubernetesClusterKubeconfig": {
		call: func(ctx context.Context, c *Client) (any, error) {
			raw, err := c.GetKubernetesClusterKubeconfig(ctx, "o-1", "p-1", "c-1")

			// The answer is raw octets; here they are the JSON the contract test looks for.
			return json.RawMessage(raw), err
		},
		service: kubernetesService, method: http.MethodGet, path: "/api/v1/organizations/o-1/projects/p-1/clusters/c-1/kubeconfig",
		status: http.StatusOK, reply: `"reply"`,
	},
	"ListClusterManagers": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListClusterManagers(ctx, "o-1") },
		service: kubernetesService, method: http.MethodGet, path: "/api/v1/organizations/o-1/clustermanagers",
		status: http.StatusOK, reply: listReply,
	},
	"ListKubernetesRegions": {
		call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListKubernetesRegions(ctx, "o-1", KubernetesRegionPhysical)
		},
		service: kubernetesService, method: http.MethodGet, path: "/api/v1/organizations/o-1/regions",
		query: "regionType=physical", status: http.StatusOK, reply: listReply,
	},
	"ListKubernetesFlavors": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListKubernetesFlavors(ctx, "o-1", "r-1") },
		service: kubernetesService, method: http.MethodGet, path: "/api/v1/organizations/o-1/regions/r-1/flavors",
		status: http.StatusOK, reply: listReply,
	},
	"ListKubernetesImages": {
		call:    func(ctx context.Context, c *Client) (any, error) { return c.ListKubernetesImages(ctx, "o-1", "r-1") },
		service: kubernetesService, method: http.MethodGet, path: "/api/v1/organizations/o-1/regions/r-1/images",
		status: http.StatusOK, reply: listReply,
	},
}

func init() {
	maps.Copy(endpoints, kubernetesEndpoints)
}

// A kubeconfig is asked for as the raw octets the service answers with, and its
// body never reaches a log, at any level: it is YAML, which masking cannot read, and
// it carries the cluster's administrator credentials. An error's body is not logged
// either.
func TestKubeconfigNeverReachesALog(t *testing.T) {
	t.Parallel()

	const kubeconfig = "apiVersion: v1\nusers:\n- name: admin\n  user:\n    token: s3cr3t-t0k3n\n"

	var accept string

	logs := &logRecorder{}
	client := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		accept = r.Header.Get("Accept")

		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write([]byte(kubeconfig))
	}), withLogger(logs.log), func(cfg *Config) { cfg.Endpoints[services.Kubernetes] = cfg.Endpoints[services.Region] })

	raw, err := client.GetKubernetesClusterKubeconfig(t.Context(), "o-1", "p-1", "c-1")
	require.NoError(t, err)
	assert.Equal(t, kubeconfig, string(raw))
	assert.Equal(t, "application/octet-stream", accept)

	require.NotEmpty(t, logs.entries, "the request itself is logged")
	assert.NotContains(t, logs.String(), "s3cr3t-t0k3n")
}
