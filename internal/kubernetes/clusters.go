// Package kubernetes is the Kubernetes family of the façade: clusters of Unikorn's
// Kubernetes service, with their workload pools, their kubeconfig, and the versions a
// region offers. It knows the service's rules (no read of one cluster, a create and
// an update answered before anything is made, an update that replaces the whole spec
// and must name the cluster's manager, networking taken once and never shown), waits
// the tens of minutes a cluster takes, and keeps track of what exists through lost
// answers and lagging reads; it knows nothing of Terraform.
package kubernetes

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Selector is the look-ups' terms, shared by every family.
type Selector = cloud.Selector

// Placement is where a cluster lives and what the service takes of it once: fixed at
// create.
type Placement struct {
	OrganizationID string
	ProjectID      string
	RegionID       string
	// Networking is nil for the service's defaults. The service ignores it in every
	// update, so it can only be given here.
	Networking *Networking
}

// Desired is what may change of a cluster in place.
type Desired struct {
	Metadata cloud.WriteMetadata
	Version  string
	// ControlPlane is nil for the service's choice at create (three machines of the
	// largest flavor it deems fit), and to keep what the cluster has at an update.
	ControlPlane *ControlPlane
	Pools        []Pool
	// AutoUpgrade is nil for the platform's default policy.
	AutoUpgrade        *AutoUpgrade
	HardwareEnablement bool
	// API is nil for none; the service never shows it.
	API *API
}

// Ref names a cluster to write to: where it is, and its manager, which every update
// must send back.
type Ref struct {
	OrganizationID   string
	ProjectID        string
	RegionID         string
	ID               string
	ClusterManagerID string
}

// RefOf names c.
func RefOf(c *Cluster) Ref {
	return Ref{
		OrganizationID: c.Metadata.OrganizationID, ProjectID: c.Metadata.ProjectID, RegionID: c.RegionID,
		ID: c.Metadata.ID, ClusterManagerID: c.ClusterManagerID,
	}
}

// Clusters is what the Terraform types use of the family: a cluster's life, its
// look-ups, its kubeconfig, and what a plan checks before anything is sent.
type Clusters interface {
	Read(ctx context.Context, organizationID, id string) (*Cluster, error)
	Create(ctx context.Context, placement Placement, desired Desired) (*Cluster, error)
	Update(ctx context.Context, ref Ref, desired Desired) (*Cluster, error)
	// Wait waits until a cluster is provisioned: for a create whose wait was cut short.
	Wait(ctx context.Context, organizationID, id string) (*Cluster, error)
	Delete(ctx context.Context, ref Ref, created time.Time) error
	List(ctx context.Context, organizationID, projectID, regionID string) ([]Cluster, error)
	Find(ctx context.Context, selector Selector) (*Cluster, error)
	Kubeconfig(ctx context.Context, organizationID, id string) (*Kubeconfig, error)
	Versions(ctx context.Context, organizationID, regionID string) ([]Version, error)
	Check(ctx context.Context, plan Plan) ([]Problem, error)
}

var _ Clusters = (*Service)(nil)

// Service manages clusters through the Kubernetes service, which every project user
// may call. It is safe for concurrent use.
type Service struct {
	session *cloud.Session
	client  *unikorn.Client
}

// NewService returns the Kubernetes façade of a session.
func NewService(session *cloud.Session) *Service {
	return &Service{session: session, client: session.Client()}
}

// concerning names the cluster a write changes, so that the instances' shared reads
// know it changed none of theirs.
func concerning(ctx context.Context, id string) context.Context {
	return unikorn.Concerning(ctx, "kubernetescluster/"+id)
}

// clusters is the organization's clusters as cloud.Object reads and deletes them. The
// service has no read of one cluster: the organization's list is filtered, and a
// cluster missing from it is a 404 like any other, definite only past the read lag.
// A delete names the cluster's project, which the writes of projectID know.
func (s *Service) clusters(organizationID, projectID string) cloud.Object[unikorn.KubernetesCluster] {
	return cloud.Object[unikorn.KubernetesCluster]{
		Kind: "Kubernetes cluster",
		Get: func(ctx context.Context, id string) (*unikorn.KubernetesCluster, error) {
			return s.get(ctx, organizationID, id)
		},
		Del: func(ctx context.Context, id string) error {
			// Sent through even when Terraform is interrupted; only the wait stops.
			return s.client.DeleteKubernetesCluster(context.WithoutCancel(concerning(ctx, id)), organizationID, projectID, id)
		},
		Metadata: func(c *unikorn.KubernetesCluster) *unikorn.ReadMetadata { return &c.Metadata.ReadMetadata },
	}
}

// get reads a cluster from the organization's list.
func (s *Service) get(ctx context.Context, organizationID, id string) (*unikorn.KubernetesCluster, error) {
	clusters, err := s.client.ListKubernetesClusters(ctx, organizationID, nil)
	if err != nil {
		return nil, err
	}

	for i := range clusters {
		if clusters[i].Metadata.ID == id {
			return &clusters[i], nil
		}
	}

	return nil, unikorn.Missing("/api/v1/organizations/"+organizationID+"/clusters", "cluster "+id+" is not in the list")
}

// list is the clusters of a project, or of every project the token may read when
// projectID is empty.
func (s *Service) list(ctx context.Context, organizationID, projectID string) ([]unikorn.KubernetesCluster, error) {
	clusters, err := s.client.ListKubernetesClusters(ctx, organizationID, nil)
	if err != nil {
		return nil, err
	}

	return slices.DeleteFunc(clusters, func(c unikorn.KubernetesCluster) bool {
		return projectID != "" && c.Metadata.ProjectID != projectID
	}), nil
}

// Read returns the cluster, or nil when the service definitely has none (see
// cloud.Object.Read).
func (s *Service) Read(ctx context.Context, organizationID, id string) (*Cluster, error) {
	return cloud.One(fromWire)(s.clusters(organizationID, "").Read(ctx, s.session, id))
}

// Create makes a cluster and waits until it is provisioned. The create is sent once:
// an answer that is lost is resolved by finding the one new cluster of the name in the
// project, never by sending it again. The cluster is returned whenever it exists, even
// with an error, so that the caller keeps track of it.
func (s *Service) Create(ctx context.Context, placement Placement, desired Desired) (*Cluster, error) {
	// No manager is named: the cluster gets the project's default one, which the
	// service makes on the project's first cluster.
	body := write{placement: placement, desired: desired}.wire()

	list := func(ctx context.Context) ([]unikorn.KubernetesCluster, error) {
		return s.list(ctx, placement.OrganizationID, placement.ProjectID)
	}

	post := func(ctx context.Context) (*unikorn.KubernetesCluster, error) {
		// Sent through even when Terraform is interrupted, and never again.
		created, err := s.client.CreateKubernetesCluster(context.WithoutCancel(concerning(ctx, "new/"+desired.Metadata.Name)),
			placement.OrganizationID, placement.ProjectID, body)

		return created, refused(err, "")
	}

	created, err := s.clusters(placement.OrganizationID, placement.ProjectID).Post(ctx, s.session, desired.Metadata.Name, list, post)
	if err != nil {
		return nil, err
	}

	return s.settle(ctx, placement.OrganizationID, created.Metadata.ID, nil, fromWire(created))
}

// Update replaces a cluster's spec and waits until a read shows it, provisioned. The
// service answers with no body, patches the version its cache holds (failing with 500
// while the cache trails the cluster), and charges the quota before anything else, so
// a quota refusal changes nothing. The update carries the whole spec and is safe to
// send again; one whose answer was lost is read back, past the read lag, before it is
// called failed. The service has no observed generation: a read that shows the spec
// and `provisioned` may come before its controller has taken the change up.
func (s *Service) Update(ctx context.Context, ref Ref, desired Desired) (*Cluster, error) {
	if ref.ClusterManagerID == "" {
		current, err := s.get(ctx, ref.OrganizationID, ref.ID)
		if err != nil {
			return nil, fmt.Errorf("reading Kubernetes cluster %s for its manager, which an update must name: %w", ref.ID, err)
		}

		ref.ClusterManagerID = current.Spec.ClusterManagerID
	}

	placement := Placement{OrganizationID: ref.OrganizationID, ProjectID: ref.ProjectID, RegionID: ref.RegionID}
	body := write{placement: placement, desired: desired, managerID: ref.ClusterManagerID}.wire()
	writes := context.WithoutCancel(concerning(ctx, ref.ID))

	err := s.session.Resend(ctx, func(context.Context) error {
		return s.client.UpdateKubernetesCluster(writes, ref.OrganizationID, ref.ProjectID, ref.ID, body)
	})

	switch {
	case err == nil:
	case cloud.IsClientError(err):
		return nil, refused(err, ref.ID)
	case !s.session.Landed(writes, func(ctx context.Context) bool {
		read, err := s.get(ctx, ref.OrganizationID, ref.ID)

		return err == nil && shows(fromWire(read), &desired)
	}):
		return nil, fmt.Errorf("updating Kubernetes cluster %s: %w", ref.ID, err)
	}

	return s.settle(ctx, ref.OrganizationID, ref.ID, &desired, nil)
}

// Wait waits until a cluster is provisioned.
func (s *Service) Wait(ctx context.Context, organizationID, id string) (*Cluster, error) {
	return s.settle(ctx, organizationID, id, nil, nil)
}

// settle waits until the cluster is provisioned and, after an update, shows desired.
// last is what is known of it so far, returned should the wait end before any read.
// The cluster was written just now, so a 404 says only that the cache has not seen it
// yet, until the read lag has passed; after that it is gone. The service retries a
// cluster in error every few seconds, and error is not the end of it: the wait goes
// on, and says that it saw it should it run out.
func (s *Service) settle(ctx context.Context, organizationID, id string, desired *Desired, last *Cluster) (*Cluster, error) {
	cluster, visibleBy := last, s.session.UnseenSettled()
	inError := false

	err := s.session.WaitFor(ctx, "Kubernetes cluster "+id+" to be provisioned", func(ctx context.Context) (bool, error) {
		began := time.Now()
		read, err := s.get(ctx, organizationID, id)

		switch {
		case unikorn.IsNotFound(err) && cloud.Unsettled(began, visibleBy):
			return false, nil
		case unikorn.IsNotFound(err):
			return false, &GoneError{ID: id}
		case err != nil:
			return false, cloud.ReadFailed(err)
		}

		cluster = fromWire(read)
		inError = cluster.Metadata.ProvisioningStatus == unikorn.ProvisioningError

		if desired != nil && !shows(cluster, desired) {
			return false, nil
		}

		return cluster.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned, nil
	})
	if err != nil && inError {
		err = &ProvisioningError{ID: id, Err: err}
	}

	return cluster, err
}

// shows reports whether a read shows what was written, as the service shows it: a
// read from a lagging cache shows the cluster as it was before. The service keeps
// the control plane of an update that leaves it out, and shows the platform's
// default auto-upgrade policy as none.
func shows(c *Cluster, d *Desired) bool {
	if c.Metadata.Name != d.Metadata.Name || c.Metadata.Description != d.Metadata.Description ||
		!maps.Equal(cloud.TagMap(c.Metadata.Tags), cloud.TagMap(d.Metadata.Tags)) ||
		c.Version != d.Version || c.HardwareEnablement != d.HardwareEnablement ||
		!sameAutoUpgrade(c.AutoUpgrade, d.AutoUpgrade) || !samePools(c.Pools, d.Pools) {
		return false
	}

	cp := d.ControlPlane

	return cp == nil || c.ControlPlane.FlavorID == cp.FlavorID && c.ControlPlane.Replicas == cmp.Or(cp.Replicas, defaultReplicas)
}

// defaultReplicas is the control plane's size when a write gives none.
const defaultReplicas = 3

// Shown is the auto-upgrade policy as the service shows it once written: the
// platform's default (none, or enabled without days) as none.
func Shown(in *AutoUpgrade) *AutoUpgrade {
	if in == nil || (in.Enabled && in.Days == nil) {
		return nil
	}

	return in
}

func sameAutoUpgrade(shown, written *AutoUpgrade) bool {
	written = Shown(written)
	if shown == nil || written == nil {
		return shown == nil && written == nil
	}

	return shown.Enabled == written.Enabled && maps.Equal(shown.Days, written.Days)
}

// samePools compares pools by name, whatever their order.
func samePools(a, b []Pool) bool {
	if len(a) != len(b) {
		return false
	}

	byName := map[string]Pool{}
	for _, pool := range a {
		byName[pool.Name] = pool
	}

	for _, want := range b {
		got, ok := byName[want.Name]
		if !ok || got.FlavorID != want.FlavorID || got.Replicas != want.Replicas ||
			!sameInt(got.MinReplicas, want.MinReplicas) || !sameInt(got.DiskGiB, want.DiskGiB) ||
			!maps.Equal(got.Labels, want.Labels) {
			return false
		}
	}

	return true
}

func sameInt(a, b *int) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// Delete deletes a cluster and waits until the service definitely has none. The
// service tears the cluster down, then releases its quota; the project's cluster
// manager, which the service made for its first cluster, stays.
func (s *Service) Delete(ctx context.Context, ref Ref, created time.Time) error {
	return s.clusters(ref.OrganizationID, ref.ProjectID).Delete(ctx, s.session, ref.ID, created)
}

// List returns the clusters of a project, or of every project of the organization the
// token may read when projectID is empty, in one region when regionID is set.
func (s *Service) List(ctx context.Context, organizationID, projectID, regionID string) ([]Cluster, error) {
	clusters, err := s.list(ctx, organizationID, projectID)

	return cloud.All(fromWire)(slices.DeleteFunc(clusters, func(c unikorn.KubernetesCluster) bool {
		return regionID != "" && c.Spec.RegionID != regionID
	}), err)
}

// Find looks a cluster up by ID, or by a name that exactly one cluster of the project
// has.
func (s *Service) Find(ctx context.Context, selector Selector) (*Cluster, error) {
	list := func(ctx context.Context) ([]unikorn.KubernetesCluster, error) {
		return s.list(ctx, selector.OrganizationID, selector.ProjectID)
	}

	return cloud.One(fromWire)(s.clusters(selector.OrganizationID, "").Lookup(ctx, s.session, selector, list))
}
