// Package cluster simulates Unikorn's Kubernetes service (uni-kubernetes v1.16.3),
// as upstream's handler/cluster is its heart: clusters with workload pools, their
// kubeconfig, the project's implicit cluster manager (which the cluster handler
// makes), and the service's catalogue of regions, flavors and images. Like compute's
// instance family, the service is a folder of its own that reaches region and
// identity only over their HTTP APIs, with an account of its own.
package cluster

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"

	"github.com/hashicorp/go-version"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The Kubernetes service's handler rules, traced to uni-kubernetes v1.16.3
// (pkg/server/handler/cluster/conversion.go, client.go), as pure functions of what
// the handler reads: the write, the cluster as it is stored, the region's flavors and
// images, and the service's options.

// Options are the service's flags that shape a cluster (cluster.Options): the limits of
// the control plane flavor it chooses, and the networking of a cluster that names none.
type Options struct {
	ControlPlaneCPUsMax      int
	ControlPlaneMemoryMaxGiB int
	NodeNetwork              string
	ServiceNetwork           string
	PodNetwork               string
	DNSNameservers           []string
}

// DefaultOptions are the flags' defaults.
func DefaultOptions() Options {
	return Options{
		ControlPlaneCPUsMax: 8, ControlPlaneMemoryMaxGiB: 16,
		NodeNetwork: "192.168.0.0/24", ServiceNetwork: "172.16.0.0/12", PodNetwork: "10.0.0.0/8",
		DNSNameservers: []string{"8.8.8.8"},
	}
}

// Bundles are the application bundles the chart installs, oldest first: a new
// cluster gets the newest that is neither a preview nor at its end of life.
var (
	ClusterBundles = []string{"kubernetes-cluster-1.4.0", "kubernetes-cluster-1.5.0", "kubernetes-cluster-1.6.0"}
	ManagerBundles = []string{"cluster-manager-2.2.0", "cluster-manager-2.3.0"}
)

// Spec is a cluster as the service stores it (the KubernetesCluster resource's spec):
// more than a read shows.
type Spec struct {
	RegionID          string `json:"regionId"`
	ClusterManagerID  string `json:"clusterManagerId"`
	Version           string `json:"version"`
	ApplicationBundle string `json:"applicationBundle"`
	// AutoUpgrade is nil for a cluster that opted out (enabled false); Days nil for the
	// platform's default window.
	AutoUpgrade  *AutoUpgrade                     `json:"autoUpgrade,omitempty"`
	Features     Features                         `json:"features"`
	API          *unikorn.KubernetesClusterAPI    `json:"api,omitempty"`
	Network      unikorn.KubernetesClusterNetwork `json:"network"`
	ControlPlane Machine                          `json:"controlPlane"`
	Pools        []Pool                           `json:"pools"`
}

// AutoUpgrade is ApplicationBundleAutoUpgradeSpec.
type AutoUpgrade struct {
	Days *unikorn.KubernetesClusterUpgradeDay `json:"days,omitempty"`
}

// Features is KubernetesClusterFeaturesSpec: autoscaling is always on for a new
// cluster and kept by an update.
type Features struct {
	Autoscaling bool `json:"autoscaling"`
	GPUOperator bool `json:"gpuOperator"`
}

// Machine is MachineGeneric: a pool's or the control plane's machines, with the image
// the service chose for them.
type Machine struct {
	Replicas int    `json:"replicas"`
	FlavorID string `json:"flavorId"`
	ImageID  string `json:"imageId"`
	DiskGiB  *int   `json:"diskGiB,omitempty"`
}

// Pool is KubernetesWorkloadPoolSpec.
type Pool struct {
	Name        string            `json:"name"`
	Machine     Machine           `json:"machine"`
	Labels      map[string]string `json:"labels,omitempty"`
	MinReplicas *int              `json:"minReplicas,omitempty"`
}

// Refusal is the service's answer to a write it does not make: a status and core's
// error body. Status 0 is no answer at all: where the handler dereferences what the
// write left out, it panics, and with no recovery middleware the connection drops.
type Refusal struct {
	Status      int
	Description string
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("%d %s", r.Status, r.Description)
}

func badRequest(description string) error {
	return &Refusal{Status: http.StatusBadRequest, Description: description}
}

// serverError is what the service answers for any error that is not a typed HTTP
// error: core's generic 500.
func serverError(description string) error {
	return &Refusal{Status: http.StatusInternalServerError, Description: description}
}

// ErrNoAnswer is the handler's panic: the connection drops with no answer.
var ErrNoAnswer = &Refusal{Status: 0, Description: "the handler dereferenced what the request left out"}

// Catalogue is what the handler reads of the region: its Kubernetes flavors (region's,
// less those under 2 CPUs or 2 GiB) and images (those with a Kubernetes version).
type Catalogue struct {
	Flavors []unikorn.Flavor
	Images  []unikorn.Image
}

// Generate is the cluster a write asks for, as the generator makes it: existing is the
// stored spec of an update, nil for a create. managerID is the cluster's manager, the
// write's or the project's default.
func Generate(write unikorn.KubernetesClusterWrite, existing *Spec, managerID string, catalogue Catalogue, options Options) (*Spec, error) {
	w := &write.Spec

	controlPlane, err := generateControlPlane(w, existing, catalogue, options)
	if err != nil {
		return nil, err
	}

	pools := make([]Pool, 0, len(w.WorkloadPools))

	for _, pool := range w.WorkloadPools {
		var imageID *string

		if existing != nil {
			if i := slices.IndexFunc(existing.Pools, func(p Pool) bool { return p.Name == pool.Name }); i >= 0 {
				imageID = &existing.Pools[i].Machine.ImageID
			}
		}

		machine, err := generateMachine(w, existing, pool.Machine, imageID, catalogue)
		if err != nil {
			return nil, err
		}

		generated := Pool{Name: pool.Name, Machine: *machine, Labels: pool.Labels}
		if pool.Autoscaling != nil {
			minimum := pool.Autoscaling.MinimumReplicas
			generated.MinReplicas = &minimum
		}

		pools = append(pools, generated)
	}

	bundle := ClusterBundles[len(ClusterBundles)-1]

	switch {
	case w.ApplicationBundleName != "":
		bundle = w.ApplicationBundleName
	case existing != nil:
		bundle = existing.ApplicationBundle
	}

	if _, err := version.NewVersion(w.Version); err != nil {
		return nil, serverError("version " + w.Version + " is not a semantic version")
	}

	spec := &Spec{
		RegionID: w.RegionID, ClusterManagerID: managerID, Version: w.Version, ApplicationBundle: bundle,
		AutoUpgrade: generateAutoUpgrade(w.AutoUpgrade), Features: Features{Autoscaling: true},
		ControlPlane: *controlPlane, Pools: pools,
	}

	if w.Features != nil {
		spec.Features.GPUOperator = w.Features.HardwareEnablement
	}

	if existing != nil {
		spec.Features.Autoscaling = existing.Features.Autoscaling
	}

	if spec.API, err = generateAPI(w.API); err != nil {
		return nil, err
	}

	if spec.Network, err = generateNetwork(w.Networking, options); err != nil {
		return nil, err
	}

	// The networking of an update is ignored: changing it would be catastrophic.
	if existing != nil {
		spec.Network = existing.Network
	}

	return spec, nil
}

// generateControlPlane keeps what an update does not name, takes what a write names
// (odd replicas only), and chooses the rest: three machines of the largest flavor
// without GPUs that is not bare metal and within the options' limits.
func generateControlPlane(w *unikorn.KubernetesClusterSpec, existing *Spec, catalogue Catalogue, options Options) (*Machine, error) {
	replicas := 3

	var (
		flavorID string
		imageID  *string
	)

	if existing != nil {
		imageID = &existing.ControlPlane.ImageID
		replicas, flavorID = existing.ControlPlane.Replicas, existing.ControlPlane.FlavorID
	}

	if cp := w.ControlPlane; cp != nil {
		replicas = 3
		if cp.Replicas != nil {
			replicas = *cp.Replicas
		}

		if replicas%2 == 0 {
			return nil, badRequest("control plane replicas must be an odd number")
		}

		flavorID = cp.FlavorID
	}

	if flavorID == "" {
		eligible := slices.DeleteFunc(slices.Clone(catalogue.Flavors), func(f unikorn.Flavor) bool {
			return f.Spec.Baremetal || f.Spec.GPU != nil || f.Spec.CPUs > options.ControlPlaneCPUsMax ||
				f.Spec.Memory > options.ControlPlaneMemoryMaxGiB
		})
		if len(eligible) == 0 {
			return nil, serverError("consistency error: unable to select a control plane flavor")
		}

		flavorID = eligible[len(eligible)-1].Metadata.ID
	}

	return generateMachine(w, existing, unikorn.KubernetesMachinePool{Replicas: &replicas, FlavorID: flavorID}, imageID, catalogue)
}

// generateMachine is a machine of a flavor the region offers, with the image of the
// version for the flavor's architecture: the one it had, while the version stays.
func generateMachine(w *unikorn.KubernetesClusterSpec, existing *Spec, m unikorn.KubernetesMachinePool, imageID *string,
	catalogue Catalogue,
) (*Machine, error) {
	if m.Replicas == nil || m.FlavorID == "" {
		return nil, ErrNoAnswer
	}

	machine := &Machine{Replicas: *m.Replicas, FlavorID: m.FlavorID}

	index := slices.IndexFunc(catalogue.Flavors, func(f unikorn.Flavor) bool { return f.Metadata.ID == m.FlavorID })
	if index < 0 {
		return nil, serverError("consistency error: flavor " + m.FlavorID + " not found")
	}

	if imageID != nil && existing != nil && w.Version == existing.Version {
		machine.ImageID = *imageID
	} else {
		architecture := catalogue.Flavors[index].Spec.Architecture

		image := slices.IndexFunc(catalogue.Images, func(i unikorn.Image) bool {
			return i.Spec.SoftwareVersions[unikorn.KubernetesVersionKey] == w.Version && i.Spec.Architecture == architecture
		})
		if image < 0 {
			return nil, serverError("consistency error: unable to select an image")
		}

		machine.ImageID = catalogue.Images[image].Metadata.ID
	}

	if m.Disk != nil {
		size := m.Disk.Size
		machine.DiskGiB = &size
	}

	return machine, nil
}

// generateAutoUpgrade is nil for an opt-out (enabled false), and otherwise the days a
// write names, none for the platform's default.
func generateAutoUpgrade(in *unikorn.KubernetesClusterAutoUpgrade) *AutoUpgrade {
	if in != nil && !in.Enabled {
		return nil
	}

	out := &AutoUpgrade{}
	if in != nil {
		out.Days = in.DaysOfWeek
	}

	return out
}

func generateAPI(in *unikorn.KubernetesClusterAPI) (*unikorn.KubernetesClusterAPI, error) {
	if in == nil {
		return nil, nil //nolint:nilnil // no API settings is no error
	}

	for _, prefix := range in.AllowedPrefixes {
		if _, _, err := net.ParseCIDR(prefix); err != nil {
			return nil, badRequest("failed to parse network prefix")
		}
	}

	return &unikorn.KubernetesClusterAPI{
		AllowedPrefixes: slices.Clone(in.AllowedPrefixes), SubjectAlternativeNames: slices.Clone(in.SubjectAlternativeNames),
	}, nil
}

func generateNetwork(in *unikorn.KubernetesClusterNetwork, options Options) (unikorn.KubernetesClusterNetwork, error) {
	out := unikorn.KubernetesClusterNetwork{
		NodePrefix: options.NodeNetwork, ServicePrefix: options.ServiceNetwork, PodPrefix: options.PodNetwork,
		DNSNameservers: slices.Clone(options.DNSNameservers),
	}

	if in == nil {
		return out, nil
	}

	for _, p := range []struct {
		in  string
		out *string
	}{{in.NodePrefix, &out.NodePrefix}, {in.ServicePrefix, &out.ServicePrefix}, {in.PodPrefix, &out.PodPrefix}} {
		if p.in == "" {
			continue
		}

		_, network, err := net.ParseCIDR(p.in)
		if err != nil {
			return out, badRequest("failed to parse network prefix")
		}

		*p.out = network.String()
	}

	// The generator takes the options' name servers whatever the write says.
	return out, nil
}

// Read is the spec as the service shows it (convert): never its API settings or
// networking; auto-upgrade absent for the platform's default, and {enabled: false}
// for an opt-out; features always.
func Read(spec *Spec) unikorn.KubernetesClusterSpec {
	replicas := spec.ControlPlane.Replicas

	out := unikorn.KubernetesClusterSpec{
		RegionID: spec.RegionID, ClusterManagerID: spec.ClusterManagerID, Version: spec.Version,
		ApplicationBundleName: spec.ApplicationBundle,
		Features:              &unikorn.KubernetesClusterFeatures{HardwareEnablement: spec.Features.GPUOperator},
		ControlPlane:          &unikorn.KubernetesClusterControlPlane{FlavorID: spec.ControlPlane.FlavorID, Replicas: &replicas},
		WorkloadPools:         []unikorn.KubernetesClusterPool{},
	}

	switch {
	case spec.AutoUpgrade == nil:
		out.AutoUpgrade = &unikorn.KubernetesClusterAutoUpgrade{}
	case spec.AutoUpgrade.Days != nil:
		out.AutoUpgrade = &unikorn.KubernetesClusterAutoUpgrade{Enabled: true, DaysOfWeek: spec.AutoUpgrade.Days}
	}

	for _, pool := range spec.Pools {
		replicas := pool.Machine.Replicas
		p := unikorn.KubernetesClusterPool{
			Name:    pool.Name,
			Machine: unikorn.KubernetesMachinePool{Replicas: &replicas, FlavorID: pool.Machine.FlavorID},
			Labels:  pool.Labels,
		}

		if pool.Machine.DiskGiB != nil {
			p.Machine.Disk = &unikorn.KubernetesVolume{Size: *pool.Machine.DiskGiB}
		}

		if pool.MinReplicas != nil {
			p.Autoscaling = &unikorn.KubernetesClusterAutoscaling{MinimumReplicas: *pool.MinReplicas}
		}

		out.WorkloadPools = append(out.WorkloadPools, p)
	}

	return out
}

// Allocations are what a cluster charges identity (generateAllocations): one of
// `clusters`; for each pool its least machines committed and the rest up to its most
// reserved, of `servers` and, times the flavor's GPUs, of `gpus`. The control plane
// is free. A pool's flavor that the region no longer offers is the service's
// consistency error.
func Allocations(spec *Spec, flavors []unikorn.Flavor) ([]unikorn.ResourceAllocation, error) {
	var servers, gpus unikorn.ResourceAllocation

	servers.Kind, gpus.Kind = "servers", "gpus"

	for _, pool := range spec.Pools {
		least, most := pool.Machine.Replicas, pool.Machine.Replicas
		if pool.MinReplicas != nil {
			least = *pool.MinReplicas
		}

		index := slices.IndexFunc(flavors, func(f unikorn.Flavor) bool { return f.Metadata.ID == pool.Machine.FlavorID })
		if index < 0 {
			return nil, errors.New("consistency error: flavorID does not exist")
		}

		servers.Committed += least
		servers.Reserved += most - least
		gpus.Committed += least * flavors[index].GPUCount()
		gpus.Reserved += (most - least) * flavors[index].GPUCount()
	}

	return []unikorn.ResourceAllocation{{Kind: "clusters", Committed: 1}, servers, gpus}, nil
}
