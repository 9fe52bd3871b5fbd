package cluster

import (
	"context"
	"net/http"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// advance does what the service's controllers have done by now, as a change of the
// records: managers and clusters move on along their schedules; a cluster provisioned
// gets its kubeconfig's credentials; a deleted cluster's quota is released, and only
// then does it leave the list (a release that fails is tried again, as the controller
// retries); a project being deleted has its clusters, then its manager, torn down, as
// identity's project controller does before the project is gone. Callers hold mu.
func (s *Service) advance() {
	s.change(func() {
		now := s.cfg.Now()

		for _, m := range s.records.Managers {
			for _, to := range m.Lifecycle.Due(now) {
				core.ApplyProvisioning(&m.Metadata.ReadMetadata, to)
			}
		}

		projects := map[string]bool{}

		for id, c := range s.records.Clusters {
			if exists, deleting := s.cfg.Project(c.Metadata.OrganizationID, c.Metadata.ProjectID); !exists || deleting {
				core.MarkDeleting(&c.Metadata.ReadMetadata, &c.Lifecycle, now, s.cfg.DeleteDelay())
			}

			projects[c.Metadata.ProjectID] = true

			for _, to := range c.Lifecycle.Due(now) {
				if core.ApplyProvisioning(&c.Metadata.ReadMetadata, to) && s.release(c) {
					delete(s.records.Clusters, id)
				}
			}

			if c.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned && c.Credentials == nil {
				c.Credentials, _ = NewCredentials(id, now)
			}
		}

		for id, m := range s.records.Managers {
			exists, deleting := s.cfg.Project(m.Metadata.OrganizationID, m.Metadata.ProjectID)
			if (!exists || deleting) && !projects[m.Metadata.ProjectID] {
				delete(s.records.Managers, id)
			}
		}
	})
}

// release deletes a gone cluster's allocation with the service's own account, and
// reports whether it is gone; a failure leaves the cluster to be released at the next
// pass.
func (s *Service) release(c *cluster) bool {
	if c.AllocationID == "" {
		return true
	}

	service, err := newClient(s.cfg.Transport, s.cfg.ServiceToken)
	if err == nil {
		err = service.DeleteAllocation(context.Background(), c.Metadata.OrganizationID, c.Metadata.ProjectID, c.AllocationID)
	}

	if err != nil && !unikorn.IsNotFound(err) {
		c.Lifecycle = core.Schedule{{To: core.ToGone, Due: s.cfg.Now()}}

		return false
	}

	c.AllocationID = ""

	return true
}

// defaultManager is the project's `default` cluster manager, made on the project's
// first cluster that names none ("Implicitly provisioned cluster controller"); no
// cluster manager permission is needed. Callers hold mu, in a change.
func (s *Service) defaultManager(organizationID, projectID string) *manager {
	for _, m := range core.ByID(s.records.Managers) {
		if m.Metadata.OrganizationID == organizationID && m.Metadata.ProjectID == projectID && m.Metadata.Name == "default" {
			return m
		}
	}

	return s.newManager(organizationID, projectID, unikorn.WriteMetadata{
		Name: "default", Description: "Implicitly provisioned cluster controller",
	})
}

func (s *Service) newManager(organizationID, projectID string, write unikorn.WriteMetadata) *manager {
	id, now := core.NewResourceID(), s.cfg.Now()
	m := &manager{
		Metadata: core.ProjectMetadata(id, write, organizationID, projectID, now),
		Bundle:   ManagerBundles[len(ManagerBundles)-1], Lifecycle: core.ProvisionSchedule(now, s.cfg.Delay()),
	}
	s.records.Managers[id] = m

	return m
}

func (s *Service) hasManager(r *records, organizationID, projectID, id string) bool {
	m, ok := r.Managers[id]

	return ok && m.Metadata.OrganizationID == organizationID && m.Metadata.ProjectID == projectID
}

// allowManagers allows what only the platform's principals may do: identity's chart
// grants `kubernetes:clustermanagers` to the platform administrator alone, globally,
// and the handlers ask for it in the manager's project.
func (s *Service) allowManagers(req *request, organizationID, projectID, operation string) error {
	return s.cfg.Authorize(req.token, organizationID, projectID, rbacManagers, operation)
}

// listManagers lists the organization's cluster managers the caller may read: only
// the platform's own principals may, so everyone else gets none.
func (s *Service) listManagers(req *request) (*core.Reply, error) {
	organizationID := req.PathValue("organizationID")
	out := []unikorn.ClusterManager{}

	for _, m := range core.ByID(req.records.Managers) {
		if m.Metadata.OrganizationID == organizationID && s.allowManagers(req, organizationID, m.Metadata.ProjectID, "read") == nil {
			out = append(out, unikorn.ClusterManager{Metadata: m.Metadata})
		}
	}

	return core.OK(out), nil
}

func decodeManager(req *request) (unikorn.WriteMetadata, error) {
	var write struct {
		Metadata unikorn.WriteMetadata `json:"metadata"`
	}

	return write.Metadata, core.DecodeBody(req.Request, &write)
}

// createManager makes a cluster manager; only the platform administrator may.
func (s *Service) createManager(req *request) (*core.Reply, error) {
	organizationID, projectID := req.PathValue("organizationID"), req.PathValue("projectID")

	switch deleting, err := s.admit(req, rbacManagers, "create"); {
	case err != nil:
		return nil, err
	case deleting:
		return nil, core.BadRequest("project is being deleted")
	}

	write, err := decodeManager(req)
	if err != nil {
		return nil, err
	}

	m := s.newManager(organizationID, projectID, write)

	return core.Accepted(unikorn.ClusterManager{Metadata: m.Metadata}), nil
}

// updateManager rewrites a manager, upgrading it silently to the newest bundle.
func (s *Service) updateManager(req *request) (*core.Reply, error) {
	organizationID, projectID, id := req.PathValue("organizationID"), req.PathValue("projectID"), req.PathValue("clusterManagerID")

	if err := s.allowManagers(req, organizationID, projectID, "update"); err != nil {
		return nil, err
	}

	write, err := decodeManager(req)
	if err != nil {
		return nil, err
	}

	if !s.hasManager(s.records, organizationID, projectID, id) {
		return nil, core.NotFound()
	}

	m := s.records.Managers[id]
	core.RewriteMetadata(&m.Metadata.ReadMetadata, write, s.cfg.Now())
	m.Bundle = ManagerBundles[len(ManagerBundles)-1]

	return &core.Reply{Status: http.StatusAccepted}, nil
}

// deleteManager deletes a manager in the foreground: its clusters are deleted first.
func (s *Service) deleteManager(req *request) (*core.Reply, error) {
	organizationID, projectID, id := req.PathValue("organizationID"), req.PathValue("projectID"), req.PathValue("clusterManagerID")

	if err := s.allowManagers(req, organizationID, projectID, "delete"); err != nil {
		return nil, err
	}

	if !s.hasManager(s.records, organizationID, projectID, id) {
		return nil, core.NotFound()
	}

	held := false

	for _, c := range s.records.Clusters {
		if c.Spec.ClusterManagerID == id {
			core.MarkDeleting(&c.Metadata.ReadMetadata, &c.Lifecycle, s.cfg.Now(), s.cfg.DeleteDelay())
			held = true
		}
	}

	if m := s.records.Managers[id]; held {
		core.MarkDeleting(&m.Metadata.ReadMetadata, &m.Lifecycle, s.cfg.Now(), s.cfg.DeleteDelay())
	} else {
		delete(s.records.Managers, id)
	}

	return &core.Reply{Status: http.StatusAccepted}, nil
}

// regions lists the regions the service offers clusters of a type (required, and one
// of the two, as the document says): `physical`, every region not of type
// kubernetes; `virtual`, only those. It asks region as the caller.
// The catalogue's handlers ask identity's ACL for the organization's
// `kubernetes:regions`, `kubernetes:flavors` or `kubernetes:images`, and then read
// region's as the caller (upstream impersonates it), so region's own rules apply too.
func (s *Service) regions(req *request) (*core.Reply, error) {
	if err := s.cfg.Authorize(req.token, req.PathValue("organizationID"), "", "kubernetes:regions", "read"); err != nil {
		return nil, err
	}

	regionType := req.URL.Query().Get("regionType")

	regions, err := req.user.ListRegions(req.Context(), req.PathValue("organizationID"))
	if err != nil {
		return nil, err
	}

	return core.OK(slices.DeleteFunc(regions, func(r unikorn.Region) bool {
		return (r.Spec.Type == "kubernetes") == (regionType == unikorn.KubernetesRegionPhysical)
	})), nil
}

func (s *Service) flavors(req *request) (*core.Reply, error) {
	if err := s.cfg.Authorize(req.token, req.PathValue("organizationID"), "", "kubernetes:flavors", "read"); err != nil {
		return nil, err
	}

	flavors, err := req.user.ListFlavors(req.Context(), req.PathValue("organizationID"), req.PathValue("regionID"))
	if err != nil {
		return nil, err
	}

	return core.OK(kubernetesFlavors(flavors)), nil
}

func (s *Service) images(req *request) (*core.Reply, error) {
	if err := s.cfg.Authorize(req.token, req.PathValue("organizationID"), "", "kubernetes:images", "read"); err != nil {
		return nil, err
	}

	images, err := req.user.ListImages(req.Context(), req.PathValue("organizationID"), req.PathValue("regionID"))
	if err != nil {
		return nil, err
	}

	return core.OK(kubernetesImages(images)), nil
}
