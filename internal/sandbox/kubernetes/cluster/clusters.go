package cluster

import (
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The cluster handlers, as uni-kubernetes v1.16.3's handler.go and cluster/client.go
// have them.

// AllocationKind is the kind the service charges a cluster's quota under.
const AllocationKind = "kubernetesclusters.kubernetes.unikorn-cloud.org"

// The RBAC endpoints of the service's objects, as identity's chart names them.
const (
	rbacClusters = "kubernetes:clusters"
	rbacManagers = "kubernetes:clustermanagers"
)

const (
	organizationPath = "/api/v1/organizations/{organizationID}"
	projectPath      = organizationPath + "/projects/{projectID}"
	clusterPath      = projectPath + "/clusters/{clusterID}"
)

func (s *Service) routes() {
	s.handle("GET "+organizationPath+"/clusters", s.listClusters)
	s.handle("POST "+projectPath+"/clusters", s.createCluster)
	s.handle("PUT "+clusterPath, s.updateCluster)
	s.handle("DELETE "+clusterPath, s.deleteCluster)
	s.handle("GET "+clusterPath+"/kubeconfig", s.kubeconfig)
	s.handle("GET "+organizationPath+"/clustermanagers", s.listManagers)
	s.handle("POST "+projectPath+"/clustermanagers", s.createManager)
	s.handle("PUT "+projectPath+"/clustermanagers/{clusterManagerID}", s.updateManager)
	s.handle("DELETE "+projectPath+"/clustermanagers/{clusterManagerID}", s.deleteManager)
	s.handle("GET "+organizationPath+"/regions", s.regions)
	s.handle("GET "+organizationPath+"/regions/{regionID}/flavors", s.flavors)
	s.handle("GET "+organizationPath+"/regions/{regionID}/images", s.images)
}

// admit asks identity's ACL whether the caller may act on the endpoint's objects in
// the path's project, and then finds the project's namespace, as the handlers do: a
// project that is not there is the service's failure to find it (500). It reports
// whether the project is being deleted.
func (s *Service) admit(req *request, endpoint, operation string) (deleting bool, err error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if err := s.cfg.Authorize(req.token, organizationID, projectID, endpoint, operation); err != nil {
		return false, err
	}

	exists, deleting := s.cfg.Project(organizationID, projectID)
	if !exists {
		return false, core.ServerError()
	}

	return deleting, nil
}

// listClusters lists the organization's clusters that carry every tag asked for, and
// keeps those of projects the caller may read, sorted by ID. There is no check before
// the list: a caller that may read none gets none.
func (s *Service) listClusters(req *request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")

	wanted, err := tagSelector(req.URL.Query()["tag"])
	if err != nil {
		return nil, err
	}

	readable := map[string]bool{}
	out := []unikorn.KubernetesCluster{}

	for _, c := range core.ByID(req.records.Clusters) {
		project := c.Metadata.ProjectID
		if c.Metadata.OrganizationID != organizationID || !hasTags(c.Metadata.Tags, wanted) {
			continue
		}

		if _, ok := readable[project]; !ok {
			readable[project] = s.cfg.Authorize(req.token, organizationID, project, rbacClusters, "read") == nil
		}

		if readable[project] {
			out = append(out, c.read())
		}
	}

	return core.OK(out), nil
}

// decodeCluster reads the body of a create or an update, which the server has
// checked against the service's document.
func decodeCluster(r *http.Request) (unikorn.KubernetesClusterWrite, error) {
	var write unikorn.KubernetesClusterWrite

	return write, core.DecodeBody(r, &write)
}

func (s *Service) createCluster(req *request) (*core.Reply, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	if _, err := s.admit(req, rbacClusters, "create"); err != nil {
		return nil, err
	}

	write, err := decodeCluster(req.Request)
	if err != nil {
		return nil, err
	}

	managerID := write.Spec.ClusterManagerID

	switch {
	case managerID == "":
		managerID = s.defaultManager(organizationID, projectID).Metadata.ID
	case !s.hasManager(req.records, organizationID, projectID, managerID):
		return nil, core.BadRequest("requested cluster manager does not exist")
	}

	catalogue, err := s.catalogue(req, organizationID, write.Spec.RegionID)
	if err != nil {
		return nil, err
	}

	spec, err := Generate(write, nil, managerID, catalogue, s.cfg.Options)
	if err != nil {
		return nil, err
	}

	id := core.NewResourceID()

	allocationID, err := s.charge(req, organizationID, projectID, id, "", spec, catalogue.Flavors)
	if err != nil {
		return nil, err
	}

	now := s.cfg.Now()
	record := &cluster{
		Metadata: core.ProjectMetadata(id, write.Metadata, organizationID, projectID, now),
		Spec:     *spec, AllocationID: allocationID,
		Lifecycle: s.makeSchedule(s.records.Managers[managerID]),
	}
	s.records.Clusters[id] = record

	return core.Accepted(record.read()), nil
}

// makeSchedule is a new cluster's way to provisioned: its manager first, then two
// steps of the delay.
func (s *Service) makeSchedule(m *manager) core.Schedule {
	start, delay := s.cfg.Now(), s.cfg.Delay()

	for _, step := range m.Lifecycle {
		if step.To == unikorn.ProvisioningProvisioned && step.Due.After(start) {
			start = step.Due
		}
	}

	return core.Schedule{
		{To: unikorn.ProvisioningProvisioning, Due: start.Add(delay / 2)},
		{To: unikorn.ProvisioningProvisioned, Due: start.Add(2 * delay)},
	}
}

func (s *Service) updateCluster(req *request) (*core.Reply, error) {
	organizationID, projectID, id := req.PathValue("organizationID"), req.PathValue("projectID"), req.PathValue("clusterID")

	switch deleting, err := s.admit(req, rbacClusters, "update"); {
	case err != nil:
		return nil, err
	case deleting:
		return nil, core.BadRequest("control plane is being deleted")
	}

	write, err := decodeCluster(req.Request)
	if err != nil {
		return nil, err
	}

	// The handler reads the cluster through its cache, and patches the version it read.
	current, ok := s.records.view(s.cfg.Cache).Clusters[id]
	if !ok || !inProject(current, organizationID, projectID) {
		return nil, core.NotFound()
	}

	switch managerID := write.Spec.ClusterManagerID; {
	case managerID == "":
		return nil, ErrNoAnswer
	case !s.hasManager(s.records, organizationID, projectID, managerID):
		return nil, core.BadRequest("requested cluster manager does not exist")
	}

	catalogue, err := s.catalogue(req, organizationID, write.Spec.RegionID)
	if err != nil {
		return nil, err
	}

	spec, err := Generate(write, &current.Spec, write.Spec.ClusterManagerID, catalogue, s.cfg.Options)
	if err != nil {
		return nil, err
	}

	// The allocation moves first: a quota refusal changes nothing.
	if _, err := s.charge(req, organizationID, projectID, id, current.AllocationID, spec, catalogue.Flavors); err != nil {
		return nil, err
	}

	record := s.records.Clusters[id]
	if record == nil || !reflect.DeepEqual(record, current) {
		// The patch's optimistic lock fails against a newer version: core's 500.
		return nil, core.ServerError()
	}

	core.RewriteMetadata(&record.Metadata.ReadMetadata, write.Metadata, s.cfg.Now())
	record.Spec = *spec
	record.Lifecycle = core.ReprovisionSchedule(s.cfg.Now(), s.cfg.Delay())

	return &core.Reply{Status: http.StatusAccepted}, nil
}

func (s *Service) deleteCluster(req *request) (*core.Reply, error) {
	organizationID, projectID, id := req.PathValue("organizationID"), req.PathValue("projectID"), req.PathValue("clusterID")

	if _, err := s.admit(req, rbacClusters, "delete"); err != nil {
		return nil, err
	}

	current, ok := s.records.view(s.cfg.Cache).Clusters[id]
	if !ok || !inProject(current, organizationID, projectID) {
		return nil, core.NotFound()
	}

	// A repeat while it is being deleted is answered as the first.
	if record, ok := s.records.Clusters[id]; ok {
		core.MarkDeleting(&record.Metadata.ReadMetadata, &record.Lifecycle, s.cfg.Now(), s.cfg.DeleteDelay())
	}

	return &core.Reply{Status: http.StatusAccepted}, nil
}

// kubeconfig answers the cluster's administrator kubeconfig, which the service reads
// from its manager once Cluster API has made it: 404 until then. Read permission is
// enough.
func (s *Service) kubeconfig(req *request) (*core.Reply, error) {
	organizationID, projectID, id := req.PathValue("organizationID"), req.PathValue("projectID"), req.PathValue("clusterID")

	if _, err := s.admit(req, rbacClusters, "read"); err != nil {
		return nil, err
	}

	c, ok := req.records.Clusters[id]
	if !ok || !inProject(c, organizationID, projectID) || c.Credentials == nil {
		return nil, core.NotFound()
	}

	return &core.Reply{Status: http.StatusOK, Body: c.Credentials.Kubeconfig(id)}, nil
}

func inProject(c *cluster, organizationID, projectID string) bool {
	return c.Metadata.OrganizationID == organizationID && c.Metadata.ProjectID == projectID
}

// charge creates the cluster's allocation, or moves allocationID to what spec uses,
// with the service's own account: identity's refusal (quota) passes through.
func (s *Service) charge(req *request, organizationID, projectID, id, allocationID string, spec *Spec,
	flavors []unikorn.Flavor,
) (string, error) {
	lines, err := Allocations(spec, flavors)
	if err != nil {
		return "", core.ServerError()
	}

	service, err := newClient(s.cfg.Transport, s.cfg.ServiceToken)
	if err != nil {
		return "", err
	}

	write := core.Charge(AllocationKind, id, lines...)

	if allocationID != "" {
		_, err = service.UpdateAllocation(req.Context(), organizationID, projectID, allocationID, write)

		return allocationID, err
	}

	allocation, err := service.CreateAllocation(req.Context(), organizationID, projectID, write)
	if err != nil {
		return "", err
	}

	return allocation.Metadata.ID, nil
}

// catalogue reads the region's flavors and images as the service does, for the
// caller: its Kubernetes flavors (at least 2 CPUs and 2 GiB) and images (those that
// carry a Kubernetes version).
func (s *Service) catalogue(req *request, organizationID, regionID string) (Catalogue, error) {
	flavors, err := req.user.ListFlavors(req.Context(), organizationID, regionID)
	if err != nil {
		return Catalogue{}, err
	}

	images, err := req.user.ListImages(req.Context(), organizationID, regionID)
	if err != nil {
		return Catalogue{}, err
	}

	return Catalogue{Flavors: kubernetesFlavors(flavors), Images: kubernetesImages(images)}, nil
}

func kubernetesFlavors(flavors []unikorn.Flavor) []unikorn.Flavor {
	return slices.DeleteFunc(flavors, func(f unikorn.Flavor) bool { return f.Spec.CPUs < 2 || f.Spec.Memory < 2 })
}

func kubernetesImages(images []unikorn.Image) []unikorn.Image {
	return slices.DeleteFunc(images, func(i unikorn.Image) bool { return i.Spec.SoftwareVersions[unikorn.KubernetesVersionKey] == "" })
}

// tagSelector parses `tag` selectors, `name=value`, every one of which must match.
func tagSelector(selectors []string) (unikorn.Tags, error) {
	var tags unikorn.Tags

	for _, selector := range selectors {
		name, value, ok := strings.Cut(selector, "=")
		if !ok || name == "" {
			return nil, core.BadRequest("tag selector %q must be of the form name=value", selector)
		}

		tags = append(tags, unikorn.Tag{Name: name, Value: value})
	}

	return tags, nil
}

func hasTags(tags, wanted unikorn.Tags) bool {
	for _, want := range wanted {
		if value, ok := tags.Get(want.Name); !ok || value != want.Value {
			return false
		}
	}

	return true
}
