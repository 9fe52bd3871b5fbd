package unikorn

import (
	"context"
	"net/http"
	"net/url"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
)

// The Kubernetes service's types follow its v1.16.3 document (module
// github.com/unikorn-cloud/kubernetes). Every path is under an organization, and
// every cluster operation is `x-hidden`, served but left out of the published
// documentation, as region's servers are. There is no read of one cluster: the
// organization's list is filtered.

// Region types the Kubernetes service lists regions by (`regionTypeParameter`):
// physical regions hold clusters of servers, virtual ones host virtual clusters.
const (
	KubernetesRegionPhysical = "physical"
	KubernetesRegionVirtual  = "virtual"
)

// KubernetesVersionKey is the key of an image's `softwareVersions` that names the
// Kubernetes version it carries (a semantic version, `v1.31.0`), which the service
// offers clusters of and matches a cluster's version against verbatim.
const KubernetesVersionKey = "kubernetes"

// KubernetesCluster is `kubernetesClusterRead`. The service never returns the spec's
// `api` and `networking`, and has no status block: its metadata says how far it has
// come.
type KubernetesCluster struct {
	Metadata ProjectScopedMetadata `json:"metadata"`
	Spec     KubernetesClusterSpec `json:"spec"`
}

// KubernetesClusterWrite is `kubernetesClusterWrite`, the body of a create and of an
// update, which replaces the whole spec.
type KubernetesClusterWrite struct {
	Metadata WriteMetadata         `json:"metadata"`
	Spec     KubernetesClusterSpec `json:"spec"`
}

// KubernetesClusterSpec is `kubernetesClusterSpec`. What an omitted member means
// differs between a create and an update (the service keeps the control plane and
// the application bundle of an update that leaves them out, but rebuilds auto-upgrade
// and features from the request), so the pointers say which is meant.
type KubernetesClusterSpec struct {
	RegionID string `json:"regionId"`
	// ClusterManagerID is left out of a create for the project's default manager,
	// which the service makes on first use; an update must send it.
	ClusterManagerID      string                         `json:"clusterManagerId,omitempty"`
	Version               string                         `json:"version"`
	ApplicationBundleName string                         `json:"applicationBundleName,omitempty"`
	AutoUpgrade           *KubernetesClusterAutoUpgrade  `json:"autoUpgrade,omitempty"`
	Features              *KubernetesClusterFeatures     `json:"features,omitempty"`
	ControlPlane          *KubernetesClusterControlPlane `json:"controlPlane,omitempty"`
	WorkloadPools         []KubernetesClusterPool        `json:"workloadPools"`
	API                   *KubernetesClusterAPI          `json:"api,omitempty"`
	Networking            *KubernetesClusterNetwork      `json:"networking,omitempty"`
}

// KubernetesClusterAutoUpgrade is `kubernetesClusterAutoUpgrade`. Absent is the
// platform's default policy, on.
type KubernetesClusterAutoUpgrade struct {
	Enabled    bool                         `json:"enabled"`
	DaysOfWeek *KubernetesClusterUpgradeDay `json:"daysOfWeek,omitempty"`
}

// KubernetesClusterUpgradeDay is `kubernetesClusterAutoUpgradeDaysOfWeek`: the days
// an upgrade may happen on, each with its window.
type KubernetesClusterUpgradeDay struct {
	Sunday    *KubernetesClusterUpgradeWindow `json:"sunday,omitempty"`
	Monday    *KubernetesClusterUpgradeWindow `json:"monday,omitempty"`
	Tuesday   *KubernetesClusterUpgradeWindow `json:"tuesday,omitempty"`
	Wednesday *KubernetesClusterUpgradeWindow `json:"wednesday,omitempty"`
	Thursday  *KubernetesClusterUpgradeWindow `json:"thursday,omitempty"`
	Friday    *KubernetesClusterUpgradeWindow `json:"friday,omitempty"`
	Saturday  *KubernetesClusterUpgradeWindow `json:"saturday,omitempty"`
}

// KubernetesClusterUpgradeWindow is `kubernetesClusterAutoUpgradeWindow`: the hours,
// 0 to 23, an upgrade may start from and until; a window may run past midnight.
type KubernetesClusterUpgradeWindow struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// KubernetesClusterFeatures is `kubernetesClusterFeatures`.
type KubernetesClusterFeatures struct {
	HardwareEnablement bool `json:"hardwareEnablement"`
}

// KubernetesClusterControlPlane is `kubernetesClusterControlPlane`.
type KubernetesClusterControlPlane struct {
	FlavorID string `json:"flavorId"`
	Replicas *int   `json:"replicas,omitempty"`
}

// KubernetesClusterPool is `kubernetesClusterWorkloadPool`.
type KubernetesClusterPool struct {
	Name        string                        `json:"name"`
	Machine     KubernetesMachinePool         `json:"machine"`
	Labels      map[string]string             `json:"labels,omitempty"`
	Autoscaling *KubernetesClusterAutoscaling `json:"autoscaling,omitempty"`
}

// KubernetesMachinePool is `machinePool`. The document makes replicas and the flavor
// optional, but the service dereferences both unchecked: a write without either gets
// no answer at all.
type KubernetesMachinePool struct {
	Replicas *int              `json:"replicas,omitempty"`
	FlavorID string            `json:"flavorId,omitempty"`
	Disk     *KubernetesVolume `json:"disk,omitempty"`
}

// KubernetesVolume is `volume`: a machine's disk, in GiB.
type KubernetesVolume struct {
	Size int `json:"size"`
}

// KubernetesClusterAutoscaling is `kubernetesClusterAutoscaling`: with it, a pool's
// replicas are its maximum.
type KubernetesClusterAutoscaling struct {
	MinimumReplicas int `json:"minimumReplicas"`
}

// KubernetesClusterAPI is `kubernetesClusterAPI`. Both lists need an item when sent.
type KubernetesClusterAPI struct {
	SubjectAlternativeNames []string `json:"subjectAlternativeNames,omitempty"`
	AllowedPrefixes         []string `json:"allowedPrefixes,omitempty"`
}

// KubernetesClusterNetwork is `kubernetesClusterNetwork`; what is left out takes the
// service's defaults, and an update's is ignored.
type KubernetesClusterNetwork struct {
	NodePrefix     string   `json:"nodePrefix,omitempty"`
	ServicePrefix  string   `json:"servicePrefix,omitempty"`
	PodPrefix      string   `json:"podPrefix,omitempty"`
	DNSNameservers []string `json:"dnsNameservers,omitempty"`
}

// ClusterManager is `clusterManagerRead`: what manages the lives of a project's
// clusters.
type ClusterManager struct {
	Metadata ProjectScopedMetadata `json:"metadata"`
}

// kubernetesOrganization is the prefix of every path of the Kubernetes service.
const kubernetesOrganization = "/api/v1/organizations/%s"

// ListKubernetesClusters lists the organization's clusters that the token may read
// and that carry every tag of tags.
func (c *Client) ListKubernetesClusters(ctx context.Context, organizationID string, tags Tags) ([]KubernetesCluster, error) {
	return callList[KubernetesCluster](ctx, c, c.op(services.Kubernetes, http.MethodGet, http.StatusOK,
		kubernetesOrganization+"/clusters", organizationID).withQuery(scopeFilter{Tags: tags}.values()))
}

// CreateKubernetesCluster creates a cluster in a project, charging the `clusters`,
// `servers` and `gpus` quotas; it answers while the cluster is pending.
func (c *Client) CreateKubernetesCluster(ctx context.Context, organizationID, projectID string,
	write KubernetesClusterWrite,
) (*KubernetesCluster, error) {
	return callObject[KubernetesCluster](ctx, c, c.op(services.Kubernetes, http.MethodPost, http.StatusAccepted,
		kubernetesOrganization+"/projects/%s/clusters", organizationID, projectID).withBody(write))
}

// UpdateKubernetesCluster replaces a cluster's spec; the service answers with no body.
func (c *Client) UpdateKubernetesCluster(ctx context.Context, organizationID, projectID, id string,
	write KubernetesClusterWrite,
) error {
	return call(ctx, c, c.op(services.Kubernetes, http.MethodPut, http.StatusAccepted,
		kubernetesOrganization+"/projects/%s/clusters/%s", organizationID, projectID, id).withBody(write))
}

// DeleteKubernetesCluster starts deleting a cluster; asked again while it is being
// deleted, it answers as the first time.
func (c *Client) DeleteKubernetesCluster(ctx context.Context, organizationID, projectID, id string) error {
	return call(ctx, c, c.op(services.Kubernetes, http.MethodDelete, http.StatusAccepted,
		kubernetesOrganization+"/projects/%s/clusters/%s", organizationID, projectID, id))
}

// GetKubernetesClusterKubeconfig returns a cluster's administrator kubeconfig, YAML
// as the service answers it; 404 until the cluster has one. Its answer is secret: it
// never reaches a log.
func (c *Client) GetKubernetesClusterKubeconfig(ctx context.Context, organizationID, projectID, id string) ([]byte, error) {
	return c.send(ctx, c.op(services.Kubernetes, http.MethodGet, http.StatusOK,
		kubernetesOrganization+"/projects/%s/clusters/%s/kubeconfig", organizationID, projectID, id).secretOctets())
}

// ListClusterManagers lists the organization's cluster managers that the token may
// read: only the platform's own principals may read any.
func (c *Client) ListClusterManagers(ctx context.Context, organizationID string) ([]ClusterManager, error) {
	return callList[ClusterManager](ctx, c, c.op(services.Kubernetes, http.MethodGet, http.StatusOK,
		kubernetesOrganization+"/clustermanagers", organizationID))
}

// ListKubernetesRegions lists the regions the service offers the organization for
// clusters of regionType.
func (c *Client) ListKubernetesRegions(ctx context.Context, organizationID, regionType string) ([]Region, error) {
	return callList[Region](ctx, c, c.op(services.Kubernetes, http.MethodGet, http.StatusOK,
		kubernetesOrganization+"/regions", organizationID).withQuery(url.Values{"regionType": {regionType}}))
}

// ListKubernetesFlavors lists the flavors of a region that a cluster's machines may
// have: region's, less those too small for Kubernetes.
func (c *Client) ListKubernetesFlavors(ctx context.Context, organizationID, regionID string) ([]Flavor, error) {
	return callList[Flavor](ctx, c, c.op(services.Kubernetes, http.MethodGet, http.StatusOK,
		kubernetesOrganization+"/regions/%s/flavors", organizationID, regionID))
}

// ListKubernetesImages lists the images of a region that carry a Kubernetes version
// (KubernetesVersionKey), which are the versions clusters may have there.
func (c *Client) ListKubernetesImages(ctx context.Context, organizationID, regionID string) ([]Image, error) {
	return callList[Image](ctx, c, c.op(services.Kubernetes, http.MethodGet, http.StatusOK,
		kubernetesOrganization+"/regions/%s/images", organizationID, regionID))
}
