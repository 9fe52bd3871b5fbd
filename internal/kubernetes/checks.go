package kubernetes

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/go-version"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Version is a Kubernetes version a region offers clusters of, as the service takes
// it (`v1.31.0`), and the architectures it has images of.
type Version struct {
	Version       string
	Architectures []string
}

// Versions returns the Kubernetes versions a region offers, newest first: those its
// images carry, as the service reads them.
func (s *Service) Versions(ctx context.Context, organizationID, regionID string) ([]Version, error) {
	images, err := s.client.ListKubernetesImages(ctx, organizationID, regionID)
	if err != nil {
		return nil, err
	}

	return versionsOf(images), nil
}

// versionsOf is the distinct Kubernetes versions of images, newest first, each with
// its architectures in name order.
func versionsOf(images []unikorn.Image) []Version {
	byVersion := map[string][]string{}

	for _, image := range images {
		if v := image.Spec.SoftwareVersions[unikorn.KubernetesVersionKey]; v != "" &&
			!slices.Contains(byVersion[v], image.Spec.Architecture) {
			byVersion[v] = append(byVersion[v], image.Spec.Architecture)
		}
	}

	versions := make([]Version, 0, len(byVersion))
	for v, architectures := range byVersion {
		slices.Sort(architectures)
		versions = append(versions, Version{Version: v, Architectures: architectures})
	}

	slices.SortFunc(versions, func(a, b Version) int { return -compareVersions(a.Version, b.Version) })

	return versions
}

// compareVersions orders semantic versions, and anything else after them by name.
func compareVersions(a, b string) int {
	va, errA := version.NewSemver(a)
	vb, errB := version.NewSemver(b)

	switch {
	case errA == nil && errB == nil:
		return va.Compare(vb)
	case errA == nil:
		return 1
	case errB == nil:
		return -1
	}

	return strings.Compare(b, a)
}

// Field is what a Problem is about.
type Field int

// The fields a plan's check finds at fault.
const (
	FieldVersion Field = iota
	FieldControlPlaneFlavor
	FieldControlPlaneReplicas
	FieldPoolFlavor
	FieldPoolReplicas
	// FieldQuota is the cluster as a whole: the quota it would be charged to.
	FieldQuota
)

// Problem is a reason the service would refuse a cluster (or fail it, with a 500 the
// user could not act on), found before anything is sent, with what to do about it.
type Problem struct {
	Field Field
	// Pool names the workload pool at fault, for the pool's fields.
	Pool    string
	Summary string
	Detail  string
	Remedy  string
}

// Plan is what a plan asks of a cluster, as far as it is known: an empty string is a
// value not known yet (made in the same apply), and so is a pool's negative replica
// count.
type Plan struct {
	OrganizationID string
	RegionID       string
	Version        string
	// ControlPlane is nil for the service's choice.
	ControlPlane *ControlPlane
	Pools        []Pool
	// Current is what the cluster has, for an update: what its quota charge moves
	// from. Nil for a create.
	Current *Cluster
}

// Check finds, at plan, what the service would refuse or fail at apply: a version
// the region offers no image of, a flavor it does not offer for Kubernetes, a flavor
// whose architecture has no image of the version, an even control plane, an
// autoscaled pool whose minimum is above its maximum, and a quota the cluster would
// exceed. A quota that cannot be read (no identity endpoint, or a token that may not
// read it) is not checked: the service's refusal says it at apply.
func (s *Service) Check(ctx context.Context, plan Plan) ([]Problem, error) {
	problems := checkPools(plan)

	if plan.RegionID == "" {
		return problems, nil
	}

	images, err := s.client.ListKubernetesImages(ctx, plan.OrganizationID, plan.RegionID)
	if err != nil {
		return problems, err
	}

	flavors, err := s.client.ListKubernetesFlavors(ctx, plan.OrganizationID, plan.RegionID)
	if err != nil {
		return problems, err
	}

	problems = append(problems, checkCatalogue(plan, versionsOf(images), flavors)...)

	quotas, err := s.client.GetQuotas(ctx, plan.OrganizationID)
	if err != nil {
		// Not knowable here; the service's refusal names the quota at apply.
		return problems, nil //nolint:nilerr // see above
	}

	return append(problems, checkQuota(plan, flavors, quotas.Quotas)...), nil
}

// checkPools is what needs nothing of the cloud.
func checkPools(plan Plan) []Problem {
	var problems []Problem

	if cp := plan.ControlPlane; cp != nil && cp.Replicas > 0 && cp.Replicas%2 == 0 {
		problems = append(problems, Problem{
			Field: FieldControlPlaneReplicas, Summary: "Even control plane",
			Detail: fmt.Sprintf("The service refuses a control plane of %d machines: etcd keeps quorum only with "+
				"an odd number.", cp.Replicas),
			Remedy: "Choose 1, 3 or 5 replicas.",
		})
	}

	for _, pool := range sortedPools(plan.Pools) {
		if pool.MinReplicas != nil && pool.Replicas >= 0 && *pool.MinReplicas > pool.Replicas {
			problems = append(problems, Problem{
				Field: FieldPoolReplicas, Pool: pool.Name, Summary: "Autoscaling minimum above its maximum",
				Detail: fmt.Sprintf("Workload pool %q may shrink to %d machines but grow to only %d: with autoscaling, "+
					"replicas is the most it grows to.", pool.Name, *pool.MinReplicas, pool.Replicas),
				Remedy: "Make min_replicas at most replicas.",
			})
		}
	}

	return problems
}

// checkCatalogue checks the version and the flavors against what the region offers.
func checkCatalogue(plan Plan, versions []Version, flavors []unikorn.Flavor) []Problem {
	var (
		problems []Problem
		offered  *Version
		names    []string
	)

	for i := range versions {
		names = append(names, versions[i].Version)

		if versions[i].Version == plan.Version {
			offered = &versions[i]
		}
	}

	if plan.Version != "" && offered == nil {
		problems = append(problems, Problem{
			Field: FieldVersion, Summary: "Kubernetes version not offered",
			Detail: fmt.Sprintf("Region %s has no image of Kubernetes %q, and the service takes the version exactly as "+
				"its images name it; it offers %s.", plan.RegionID, plan.Version, listOrNone(names)),
			Remedy: "Choose one of those, as the `unikorn_kubernetes_versions` data source lists them.",
		})
	}

	check := func(flavorID string, field Field, pool, what string) {
		index := slices.IndexFunc(flavors, func(f unikorn.Flavor) bool { return f.Metadata.ID == flavorID })

		switch {
		case flavorID == "":
		case index < 0:
			problems = append(problems, Problem{
				Field: field, Pool: pool, Summary: "Flavor not offered for Kubernetes",
				Detail: fmt.Sprintf("Flavor %s of %s is not one region %s offers for Kubernetes machines, which need at "+
					"least 2 CPUs and 2 GiB of memory.", flavorID, what, plan.RegionID),
				Remedy: "Choose one of the region's flavors with at least 2 CPUs and 2 GiB (the `unikorn_flavors` data source lists them).",
			})
		case offered != nil && !slices.Contains(offered.Architectures, flavors[index].Spec.Architecture):
			problems = append(problems, Problem{
				Field: field, Pool: pool, Summary: "No image for the flavor's architecture",
				Detail: fmt.Sprintf("Flavor %s of %s is %s, and region %s has images of Kubernetes %s for %s only.",
					flavorID, what, flavors[index].Spec.Architecture, plan.RegionID, plan.Version,
					strings.Join(offered.Architectures, ", ")),
				Remedy: "Choose a flavor of one of those architectures, or a version with images for this one.",
			})
		}
	}

	if cp := plan.ControlPlane; cp != nil {
		check(cp.FlavorID, FieldControlPlaneFlavor, "", "the control plane")
	}

	for _, pool := range sortedPools(plan.Pools) {
		check(pool.FlavorID, FieldPoolFlavor, pool.Name, "workload pool "+fmt.Sprintf("%q", pool.Name))
	}

	return problems
}

// checkQuota checks what the cluster would charge against what is free: a create
// charges one cluster; both charge each pool's most machines to `servers`, and its
// GPUs to `gpus`, of which an update moves the difference. A pool whose size or
// flavor is not known yet is left out.
func checkQuota(plan Plan, flavors []unikorn.Flavor, quotas []unikorn.Quota) []Problem {
	need := map[string]int{}

	if plan.Current == nil {
		need[QuotaClusters] = 1
	}

	charge := func(pools []Pool, sign int) {
		for _, pool := range pools {
			index := slices.IndexFunc(flavors, func(f unikorn.Flavor) bool { return f.Metadata.ID == pool.FlavorID })
			if pool.Replicas < 0 || index < 0 {
				continue
			}

			need[QuotaServers] += sign * pool.Most()
			need[QuotaGPUs] += sign * pool.Most() * flavors[index].GPUCount()
		}
	}

	charge(plan.Pools, 1)

	if plan.Current != nil {
		charge(plan.Current.Pools, -1)
	}

	var problems []Problem

	for _, kind := range []string{QuotaClusters, QuotaServers, QuotaGPUs} {
		index := slices.IndexFunc(quotas, func(q unikorn.Quota) bool { return q.Kind == kind })
		if need[kind] <= 0 || index < 0 || need[kind] <= quotas[index].Free {
			continue
		}

		problems = append(problems, Problem{
			Field: FieldQuota, Summary: "Quota `" + kind + "` would be exceeded",
			Detail: fmt.Sprintf("The cluster needs %d more of the organization's `%s` quota, which has %d of %d free "+
				"(a cluster is charged one of `clusters`, and its workload pools at their most machines to `servers` "+
				"and their GPUs to `gpus`; the control plane is free).", need[kind], kind, quotas[index].Free, quotas[index].Quantity),
			Remedy: "Make the workload pools smaller, delete clusters or instances you no longer need, or ask the " +
				"platform operator to raise the organization's `" + kind + "` quota.",
		})
	}

	return problems
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}

	return strings.Join(names, ", ")
}
