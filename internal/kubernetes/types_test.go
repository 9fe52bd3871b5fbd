package kubernetes

import (
	"encoding/base64"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// fullCluster is a cluster with every field the service shows set.
func fullCluster() unikorn.KubernetesCluster {
	three, two, one, disk := 3, 2, 1, 50
	metadata := cloudtest.ProjectMetadata()
	metadata.HealthStatus = unikorn.HealthHealthy

	return unikorn.KubernetesCluster{
		Metadata: metadata,
		Spec: unikorn.KubernetesClusterSpec{
			RegionID: "region", ClusterManagerID: "manager", Version: "v1.31.0", ApplicationBundleName: "kubernetes-cluster-1.6.0",
			AutoUpgrade: &unikorn.KubernetesClusterAutoUpgrade{Enabled: true, DaysOfWeek: &unikorn.KubernetesClusterUpgradeDay{
				Sunday: &unikorn.KubernetesClusterUpgradeWindow{Start: 1, End: 2}, Monday: &unikorn.KubernetesClusterUpgradeWindow{Start: 2, End: 3},
				Tuesday: &unikorn.KubernetesClusterUpgradeWindow{Start: 3, End: 4}, Wednesday: &unikorn.KubernetesClusterUpgradeWindow{Start: 4, End: 5},
				Thursday: &unikorn.KubernetesClusterUpgradeWindow{Start: 5, End: 6}, Friday: &unikorn.KubernetesClusterUpgradeWindow{Start: 6, End: 7},
				Saturday: &unikorn.KubernetesClusterUpgradeWindow{Start: 22, End: 6},
			}},
			Features:     &unikorn.KubernetesClusterFeatures{HardwareEnablement: true},
			ControlPlane: &unikorn.KubernetesClusterControlPlane{FlavorID: "control", Replicas: &three},
			WorkloadPools: []unikorn.KubernetesClusterPool{{
				Name:        "general",
				Machine:     unikorn.KubernetesMachinePool{Replicas: &two, FlavorID: "standard", Disk: &unikorn.KubernetesVolume{Size: disk}},
				Labels:      map[string]string{"tier": "web"},
				Autoscaling: &unikorn.KubernetesClusterAutoscaling{MinimumReplicas: one},
			}},
		},
	}
}

// What the service shows of a cluster comes back whole from the façade's cluster, and
// a write made of that cluster sends the whole spec again (but what the service never
// shows, API settings and networking, which only the writer has, and the application
// bundle, which the service keeps and moves on by itself).
func TestClusterKeepsEveryFieldBothWays(t *testing.T) {
	t.Parallel()

	in := fullCluster()
	cloudtest.RequireAllSet(t, *in.Spec.AutoUpgrade.DaysOfWeek)
	cloudtest.RequireAllSet(t, in.Spec.WorkloadPools[0])
	cloudtest.RequireAllSet(t, in.Spec.WorkloadPools[0].Machine)

	c := fromWire(&in)
	cloudtest.RequireAllSet(t, *c)
	cloudtest.RequireAllSet(t, c.Pools[0])

	cp := c.ControlPlane
	desired := Desired{
		Metadata: c.Metadata.WriteMetadata, Version: c.Version, ControlPlane: &cp, Pools: c.Pools,
		AutoUpgrade: c.AutoUpgrade, HardwareEnablement: c.HardwareEnablement,
	}
	out := write{placement: Placement{RegionID: c.RegionID}, desired: desired, managerID: c.ClusterManagerID}.wire()

	want := in.Spec
	want.ApplicationBundleName = ""
	assert.Equal(t, want, out.Spec)
	assert.Equal(t, in.Metadata.WriteMetadata, out.Metadata)
	assert.True(t, shows(c, &desired), "the cluster shows what it was read as")
}

// API settings and networking are sent as written, and none is sent as absent, not
// as empty lists the document refuses.
func TestWriteSendsWhatTheServiceNeverShows(t *testing.T) {
	t.Parallel()

	w := write{
		placement: Placement{RegionID: "r", Networking: &Networking{
			NodePrefix: "192.168.1.0/24", ServicePrefix: "172.16.0.0/12", PodPrefix: "10.0.0.0/8",
		}},
		desired: Desired{API: &API{AllowedPrefixes: []string{"10.0.0.0/8"}, SubjectAlternativeNames: []string{"k8s.example.com"}}},
	}
	spec := w.wire().Spec
	require.NotNil(t, spec.API)
	cloudtest.RequireAllSet(t, *spec.API)
	require.NotNil(t, spec.Networking)
	assert.Equal(t, unikorn.KubernetesClusterNetwork{NodePrefix: "192.168.1.0/24", ServicePrefix: "172.16.0.0/12", PodPrefix: "10.0.0.0/8"},
		*spec.Networking, "DNS servers, which the service ignores, are never sent")

	assert.Nil(t, write{desired: Desired{API: &API{}}}.wire().Spec.API)
	assert.NotNil(t, write{}.wire().Spec.WorkloadPools, "the pools are a list, never null")
}

// Pools go in name order, whatever order they were given in.
func TestPoolsAreSentInNameOrder(t *testing.T) {
	t.Parallel()

	spec := write{desired: Desired{Pools: []Pool{{Name: "b", Replicas: 1}, {Name: "a", Replicas: 2}}}}.wire().Spec
	require.Len(t, spec.WorkloadPools, 2)
	assert.Equal(t, "a", spec.WorkloadPools[0].Name)
	assert.Equal(t, 2, *spec.WorkloadPools[0].Machine.Replicas)
}

// The service shows the platform's default auto-upgrade policy as none, whether none
// or one enabled without days was sent; what it echoes is compared as sent.
func TestShowsReadsAutoUpgradeAsTheServiceShowsIt(t *testing.T) {
	t.Parallel()

	off := &AutoUpgrade{Enabled: false}
	windows := &AutoUpgrade{Enabled: true, Days: map[string]Window{"monday": {Start: 0, End: 7}}}

	for name, tc := range map[string]struct {
		shown, written *AutoUpgrade
		want           bool
	}{
		"default as none":            {nil, nil, true},
		"enabled without days":       {nil, &AutoUpgrade{Enabled: true}, true},
		"off echoed":                 {off, off, true},
		"off not yet shown":          {nil, off, false},
		"windows echoed":             {windows, windows, true},
		"other windows":              {&AutoUpgrade{Enabled: true, Days: map[string]Window{"monday": {Start: 1, End: 7}}}, windows, false},
		"windows dropped by another": {nil, windows, false},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, sameAutoUpgrade(tc.shown, tc.written))
		})
	}
}

// A read of the cluster before an update, from a lagging cache, does not show it:
// any pool's difference, a pool more or fewer, another version; a control plane left
// out of the update is whatever the cluster has.
func TestShowsTellsAnUpdateFromTheClusterBefore(t *testing.T) {
	t.Parallel()

	in := fullCluster()
	c := fromWire(&in)
	base := Desired{Metadata: c.Metadata.WriteMetadata, Version: c.Version, Pools: c.Pools, AutoUpgrade: c.AutoUpgrade, HardwareEnablement: true}
	require.True(t, shows(c, &base))

	four := 4
	changes := map[string]func(d *Desired){
		"resized": func(d *Desired) {
			d.Pools = []Pool{{Name: "general", FlavorID: "standard", Replicas: 4, MinReplicas: c.Pools[0].MinReplicas, DiskGiB: c.Pools[0].DiskGiB, Labels: c.Pools[0].Labels}}
		},
		"pool added": func(d *Desired) {
			d.Pools = append(append([]Pool{}, c.Pools...), Pool{Name: "gpu", FlavorID: "gpu", Replicas: 1})
		},
		"pool removed":  func(d *Desired) { d.Pools = nil },
		"version":       func(d *Desired) { d.Version = "v1.32.0" },
		"control plane": func(d *Desired) { d.ControlPlane = &ControlPlane{FlavorID: "control", Replicas: 5} },
		"hardware":      func(d *Desired) { d.HardwareEnablement = false },
		"name":          func(d *Desired) { d.Metadata.Name = "other" },
		"autoscaling":   func(d *Desired) { p := c.Pools[0]; p.MinReplicas = &four; d.Pools = []Pool{p} },
	}

	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			d := base
			change(&d)
			assert.False(t, shows(c, &d))
		})
	}
}

// The versions a region offers are its images' distinct Kubernetes versions, newest
// by semantic version first, each with its architectures; images without one are
// not Kubernetes images.
func TestVersionsAreTheImagesVersionsNewestFirst(t *testing.T) {
	t.Parallel()

	image := func(version, arch string) unikorn.Image {
		var i unikorn.Image

		i.Spec.Architecture = arch
		if version != "" {
			i.Spec.SoftwareVersions = map[string]string{unikorn.KubernetesVersionKey: version}
		}

		return i
	}

	versions := versionsOf([]unikorn.Image{
		image("v1.9.0", "x86_64"), image("v1.31.0", "x86_64"), image("v1.31.0", "aarch64"), image("v1.31.0", "x86_64"),
		image("", "x86_64"), image("v1.30.2", "aarch64"),
	})

	assert.Equal(t, []Version{
		{Version: "v1.31.0", Architectures: []string{"aarch64", "x86_64"}},
		{Version: "v1.30.2", Architectures: []string{"aarch64"}},
		{Version: "v1.9.0", Architectures: []string{"x86_64"}},
	}, versions)
}

const testKubeconfig = `apiVersion: v1
kind: Config
current-context: admin@cluster
clusters:
- name: other
  cluster:
    server: https://other.example.com:6443
- name: cluster
  cluster:
    server: https://203.0.113.10:6443
    certificate-authority-data: %s
contexts:
- name: admin@cluster
  context:
    cluster: cluster
    user: admin
users:
- name: admin
  user:
    client-certificate-data: %s
    client-key-data: %s
`

// A kubeconfig is taken apart at its current context, its data decoded; one that
// names no server or no credentials is refused without quoting it.
func TestParseKubeconfigTakesTheCurrentContext(t *testing.T) {
	t.Parallel()

	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	raw := []byte(fmt.Sprintf(testKubeconfig, b64("CA PEM"), b64("CERT PEM"), b64("KEY PEM")))

	parsed, err := ParseKubeconfig(raw)
	require.NoError(t, err)
	assert.Equal(t, &Kubeconfig{
		Raw: string(raw), Host: "https://203.0.113.10:6443", CACertificate: "CA PEM",
		ClientCertificate: "CERT PEM", ClientKey: "KEY PEM",
	}, parsed)

	_, err = ParseKubeconfig([]byte(fmt.Sprintf(testKubeconfig, b64("CA"), "", "")))
	require.ErrorContains(t, err, "no client credentials")

	_, err = ParseKubeconfig([]byte("token: [secret"))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "secret")
}
