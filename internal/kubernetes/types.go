package kubernetes

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Provisioned is the status of a cluster the service has made as it is written.
const Provisioned = unikorn.ProvisioningProvisioned

// Architectures are the machines' architectures a version may have images of.
var Architectures = []string{unikorn.ArchitectureX86_64, unikorn.ArchitectureAarch64}

// Cluster is a Kubernetes cluster as the service shows it. The service never shows
// a cluster's API settings or networking, so neither is here: only the writer knows
// them.
type Cluster struct {
	Metadata cloud.ProjectMetadata
	// HealthStatus is the service's view of the cluster's health, `unknown` until its
	// monitor has looked.
	HealthStatus string
	RegionID     string
	// Version is the Kubernetes version, exactly as it was sent.
	Version string
	// ClusterManagerID is the manager of the cluster's life: the project's default
	// one unless a platform operator chose another.
	ClusterManagerID string
	// ApplicationBundle is the versioned set of software the cluster runs; the
	// service's monitor moves it on by itself (auto-upgrade, end of life).
	ApplicationBundle string
	// AutoUpgrade is nil where the service shows none: the platform's default policy
	// (on, in a window it chooses), whether it was asked for by sending none or by
	// sending it enabled with no days.
	AutoUpgrade        *AutoUpgrade
	HardwareEnablement bool
	ControlPlane       ControlPlane
	// Pools are in the order they were sent.
	Pools []Pool
}

// ControlPlane is the machines that run a cluster's control plane.
type ControlPlane struct {
	FlavorID string
	// Replicas is odd, for quorum; 0 in what is written is the service's default,
	// three.
	Replicas int
}

// Pool is a workload pool: machines of one flavor that run a cluster's workloads.
type Pool struct {
	// Name names the pool within its cluster: an update keeps a pool of the same
	// name, with its image while the version stays.
	Name     string
	FlavorID string
	// Replicas is the number of machines, or the most an autoscaled pool grows to.
	Replicas int
	// MinReplicas is the least an autoscaled pool shrinks to; nil for a pool of a
	// fixed size.
	MinReplicas *int
	// DiskGiB is each machine's disk; nil for the flavor's own.
	DiskGiB *int
	Labels  map[string]string
}

// Most is the most machines the pool may have, which the `servers` quota holds.
func (p Pool) Most() int { return p.Replicas }

// Days are the week's days as the service names them, Sunday first.
var Days = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// AutoUpgrade is when the service may move a cluster to a newer application bundle
// by itself. Enabled with no Days is the platform's default window.
type AutoUpgrade struct {
	Enabled bool
	// Days are the windows upgrades may happen in, by the day's name (Days).
	Days map[string]Window
}

// Window is the hours, 0 to 23, an upgrade may start from and until; it may run past
// midnight.
type Window struct {
	Start, End int
}

// API is who may reach a cluster's Kubernetes API and the names its certificate
// carries beside the usual ones.
type API struct {
	AllowedPrefixes         []string
	SubjectAlternativeNames []string
}

// Networking is a cluster's address ranges. The service takes them once, at create,
// and ignores them in every update; what is left empty takes the service's defaults.
// Its document lets a write name DNS servers too, but the service takes its own
// whatever the write says, so they are not offered here.
type Networking struct {
	NodePrefix    string
	ServicePrefix string
	PodPrefix     string
}

// fromWire is the service's cluster in the façade's terms.
func fromWire(in *unikorn.KubernetesCluster) *Cluster {
	spec := &in.Spec

	out := &Cluster{
		Metadata:          cloud.ProjectMetadataOf(&in.Metadata),
		HealthStatus:      in.Metadata.HealthStatus,
		RegionID:          spec.RegionID,
		Version:           spec.Version,
		ClusterManagerID:  spec.ClusterManagerID,
		ApplicationBundle: spec.ApplicationBundleName,
		AutoUpgrade:       autoUpgradeFromWire(spec.AutoUpgrade),
	}

	if spec.Features != nil {
		out.HardwareEnablement = spec.Features.HardwareEnablement
	}

	if cp := spec.ControlPlane; cp != nil {
		out.ControlPlane = ControlPlane{FlavorID: cp.FlavorID, Replicas: deref(cp.Replicas)}
	}

	for _, pool := range spec.WorkloadPools {
		p := Pool{
			Name:     pool.Name,
			FlavorID: pool.Machine.FlavorID,
			Replicas: deref(pool.Machine.Replicas),
			Labels:   maps.Clone(pool.Labels),
		}

		if pool.Autoscaling != nil {
			p.MinReplicas = ref(pool.Autoscaling.MinimumReplicas)
		}

		if pool.Machine.Disk != nil {
			p.DiskGiB = ref(pool.Machine.Disk.Size)
		}

		out.Pools = append(out.Pools, p)
	}

	return out
}

func autoUpgradeFromWire(in *unikorn.KubernetesClusterAutoUpgrade) *AutoUpgrade {
	if in == nil {
		return nil
	}

	out := &AutoUpgrade{Enabled: in.Enabled}

	if days := in.DaysOfWeek; days != nil {
		out.Days = map[string]Window{}

		for i, window := range windowsOf(days) {
			if *window != nil {
				out.Days[Days[i]] = Window{Start: (*window).Start, End: (*window).End}
			}
		}
	}

	return out
}

// write is what the service is sent to make or change a cluster: the whole spec,
// since an update replaces it.
type write struct {
	placement Placement
	desired   Desired
	// managerID is the cluster's manager, which an update must send back.
	managerID string
}

// wire is the write as the service takes it. Pools go in name order, so that what
// is sent does not change from one run to the next.
func (w write) wire() unikorn.KubernetesClusterWrite {
	d := &w.desired

	spec := unikorn.KubernetesClusterSpec{
		RegionID:         w.placement.RegionID,
		ClusterManagerID: w.managerID,
		Version:          d.Version,
		AutoUpgrade:      autoUpgradeWire(d.AutoUpgrade),
		Features:         &unikorn.KubernetesClusterFeatures{HardwareEnablement: d.HardwareEnablement},
		WorkloadPools:    []unikorn.KubernetesClusterPool{},
	}

	if cp := d.ControlPlane; cp != nil {
		spec.ControlPlane = &unikorn.KubernetesClusterControlPlane{FlavorID: cp.FlavorID}
		if cp.Replicas > 0 {
			spec.ControlPlane.Replicas = ref(cp.Replicas)
		}
	}

	for _, pool := range sortedPools(d.Pools) {
		p := unikorn.KubernetesClusterPool{
			Name:    pool.Name,
			Machine: unikorn.KubernetesMachinePool{FlavorID: pool.FlavorID, Replicas: ref(pool.Replicas)},
			Labels:  maps.Clone(pool.Labels),
		}

		if pool.MinReplicas != nil {
			p.Autoscaling = &unikorn.KubernetesClusterAutoscaling{MinimumReplicas: *pool.MinReplicas}
		}

		if pool.DiskGiB != nil {
			p.Machine.Disk = &unikorn.KubernetesVolume{Size: *pool.DiskGiB}
		}

		spec.WorkloadPools = append(spec.WorkloadPools, p)
	}

	if api := d.API; api != nil && (len(api.AllowedPrefixes) > 0 || len(api.SubjectAlternativeNames) > 0) {
		spec.API = &unikorn.KubernetesClusterAPI{
			AllowedPrefixes:         slices.Clone(api.AllowedPrefixes),
			SubjectAlternativeNames: slices.Clone(api.SubjectAlternativeNames),
		}
	}

	if n := w.placement.Networking; n != nil {
		spec.Networking = &unikorn.KubernetesClusterNetwork{NodePrefix: n.NodePrefix, ServicePrefix: n.ServicePrefix, PodPrefix: n.PodPrefix}
	}

	return unikorn.KubernetesClusterWrite{Metadata: d.Metadata.Wire(), Spec: spec}
}

func autoUpgradeWire(in *AutoUpgrade) *unikorn.KubernetesClusterAutoUpgrade {
	if in == nil {
		return nil
	}

	out := &unikorn.KubernetesClusterAutoUpgrade{Enabled: in.Enabled}

	if in.Days != nil {
		out.DaysOfWeek = &unikorn.KubernetesClusterUpgradeDay{}

		for i, window := range windowsOf(out.DaysOfWeek) {
			if day, ok := in.Days[Days[i]]; ok {
				*window = &unikorn.KubernetesClusterUpgradeWindow{Start: day.Start, End: day.End}
			}
		}
	}

	return out
}

// windowsOf is the service's days of the week in Days' order.
func windowsOf(d *unikorn.KubernetesClusterUpgradeDay) []**unikorn.KubernetesClusterUpgradeWindow {
	return []**unikorn.KubernetesClusterUpgradeWindow{
		&d.Sunday, &d.Monday, &d.Tuesday, &d.Wednesday, &d.Thursday, &d.Friday, &d.Saturday,
	}
}

func sortedPools(pools []Pool) []Pool {
	return slices.SortedFunc(slices.Values(pools), func(a, b Pool) int { return strings.Compare(a.Name, b.Name) })
}

func ref(v int) *int { return &v }

func deref(v *int) int {
	if v == nil {
		return 0
	}

	return *v
}

// poolName is a DNS label: the service names the Kubernetes objects of a pool (its
// machine deployment and templates) after it.
var poolName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// ValidatePoolName checks the name of a workload pool.
func ValidatePoolName(name string) error {
	if len(name) > 63 || !poolName.MatchString(name) {
		return fmt.Errorf("%q is not a DNS label: lower-case letters, digits and `-`, beginning and ending with a "+
			"letter or digit, at most 63 characters", name)
	}

	return nil
}
