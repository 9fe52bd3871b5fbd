package cluster

import (
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func flavor(id string, cpus, memory int, arch string, gpus int) unikorn.Flavor {
	var f unikorn.Flavor

	f.Metadata.ID = id
	f.Spec = unikorn.FlavorSpec{CPUs: cpus, Memory: memory, Architecture: arch}
	if gpus > 0 {
		f.Spec.GPU = &unikorn.GPUSpec{PhysicalCount: gpus}
	}

	return f
}

func image(id, version, arch string) unikorn.Image {
	var i unikorn.Image

	i.Metadata.ID = id
	i.Spec.Architecture = arch
	i.Spec.SoftwareVersions = map[string]string{unikorn.KubernetesVersionKey: version}

	return i
}

// testCatalogue is a region's: in the contract's order, by GPUs, CPUs and memory.
var testCatalogue = Catalogue{
	Flavors: []unikorn.Flavor{
		flavor("arm", 2, 4, "aarch64", 0), flavor("std", 4, 8, "x86_64", 0), flavor("big", 16, 64, "x86_64", 0),
		flavor("gpu", 8, 16, "x86_64", 1),
	},
	Images: []unikorn.Image{image("img-131", "v1.31.0", "x86_64"), image("img-132", "v1.32.0", "x86_64"), image("arm-131", "v1.31.0", "aarch64")},
}

func replicas(n int) *int { return &n }

func write(pools ...unikorn.KubernetesClusterPool) unikorn.KubernetesClusterWrite {
	return unikorn.KubernetesClusterWrite{
		Metadata: unikorn.WriteMetadata{Name: "c"},
		Spec:     unikorn.KubernetesClusterSpec{RegionID: "r", Version: "v1.31.0", WorkloadPools: pools},
	}
}

func pool(name, flavorID string, n int) unikorn.KubernetesClusterPool {
	return unikorn.KubernetesClusterPool{Name: name, Machine: unikorn.KubernetesMachinePool{Replicas: replicas(n), FlavorID: flavorID}}
}

func status(err error) int {
	var refusal *Refusal
	if errors.As(err, &refusal) {
		return refusal.Status
	}

	return -1
}

// With no control plane the service chooses three machines of the largest flavor
// without GPUs, not bare metal, of at most 8 CPUs and 16 GiB; the machines of every
// part get the first image of the version for their flavor's architecture.
func TestGenerateChoosesAsTheService(t *testing.T) {
	t.Parallel()

	spec, err := Generate(write(pool("a", "std", 2), pool("b", "arm", 1)), nil, "m", testCatalogue, DefaultOptions())
	require.NoError(t, err)

	assert.Equal(t, Machine{Replicas: 3, FlavorID: "std", ImageID: "img-131"}, spec.ControlPlane)
	assert.Equal(t, "img-131", spec.Pools[0].Machine.ImageID)
	assert.Equal(t, "arm-131", spec.Pools[1].Machine.ImageID)
	assert.Equal(t, "kubernetes-cluster-1.6.0", spec.ApplicationBundle)
	assert.Equal(t, Features{Autoscaling: true}, spec.Features)
	assert.Equal(t, unikorn.KubernetesClusterNetwork{NodePrefix: "192.168.0.0/24", ServicePrefix: "172.16.0.0/12", PodPrefix: "10.0.0.0/8",
		DNSNameservers: []string{"8.8.8.8"}}, spec.Network)
	assert.Equal(t, &AutoUpgrade{}, spec.AutoUpgrade, "the platform's default policy")
}

// The service's refusals keep its split: what it validates is a 400, what it trips
// over a 500, and what it dereferences unchecked no answer at all.
func TestGenerateRefusesAsTheService(t *testing.T) {
	t.Parallel()

	even := write(pool("a", "std", 1))
	even.Spec.ControlPlane = &unikorn.KubernetesClusterControlPlane{FlavorID: "std", Replicas: replicas(2)}

	badPrefix := write(pool("a", "std", 1))
	badPrefix.Spec.API = &unikorn.KubernetesClusterAPI{AllowedPrefixes: []string{"10.0.0.0"}}

	badNetwork := write(pool("a", "std", 1))
	badNetwork.Spec.Networking = &unikorn.KubernetesClusterNetwork{PodPrefix: "pods"}

	noVersion := write(pool("a", "std", 1))
	noVersion.Spec.Version = "1.31.0"

	for name, tc := range map[string]struct {
		write     unikorn.KubernetesClusterWrite
		catalogue Catalogue
		want      int
	}{
		"even control plane":            {even, testCatalogue, http.StatusBadRequest},
		"bad allowed prefix":            {badPrefix, testCatalogue, http.StatusBadRequest},
		"bad network prefix":            {badNetwork, testCatalogue, http.StatusBadRequest},
		"flavor not offered":            {write(pool("a", "tiny", 1)), testCatalogue, http.StatusInternalServerError},
		"no image of the version":       {noVersion, testCatalogue, http.StatusInternalServerError},
		"no flavor for a control plane": {write(pool("a", "gpu", 1)), Catalogue{Flavors: testCatalogue.Flavors[2:], Images: testCatalogue.Images}, http.StatusInternalServerError},
		"replicas left out": {write(unikorn.KubernetesClusterPool{Name: "a", Machine: unikorn.KubernetesMachinePool{FlavorID: "std"}}),
			testCatalogue, 0},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			_, err := Generate(tc.write, nil, "m", tc.catalogue, DefaultOptions())
			assert.Equal(t, tc.want, status(err), "%v", err)
		})
	}
}

// An update keeps what the service keeps: the control plane and the bundle it does
// not name, a pool's image while its name and the version stay, the networking
// whatever it says; and rebuilds auto-upgrade and features from the write.
func TestGenerateUpdateKeepsAsTheService(t *testing.T) {
	t.Parallel()

	created := write(pool("a", "std", 2))
	created.Spec.ControlPlane = &unikorn.KubernetesClusterControlPlane{FlavorID: "big", Replicas: replicas(5)}
	created.Spec.Features = &unikorn.KubernetesClusterFeatures{HardwareEnablement: true}
	created.Spec.AutoUpgrade = &unikorn.KubernetesClusterAutoUpgrade{Enabled: false}

	existing, err := Generate(created, nil, "m", testCatalogue, DefaultOptions())
	require.NoError(t, err)
	require.Nil(t, existing.AutoUpgrade, "opted out")

	// Another image of the version appears; the pool keeps its own.
	catalogue := testCatalogue
	catalogue.Images = append([]unikorn.Image{image("img-131-new", "v1.31.0", "x86_64")}, catalogue.Images...)

	update := write(pool("a", "std", 4), pool("b", "std", 1))
	update.Spec.Networking = &unikorn.KubernetesClusterNetwork{NodePrefix: "10.9.0.0/16"}

	spec, err := Generate(update, existing, "m", catalogue, DefaultOptions())
	require.NoError(t, err)

	assert.Equal(t, Machine{Replicas: 5, FlavorID: "big", ImageID: "img-131"}, spec.ControlPlane)
	assert.Equal(t, "img-131", spec.Pools[0].Machine.ImageID, "a pool keeps its image")
	assert.Equal(t, 4, spec.Pools[0].Machine.Replicas)
	assert.Equal(t, "img-131-new", spec.Pools[1].Machine.ImageID, "a new pool gets the first")
	assert.Equal(t, existing.Network, spec.Network, "networking is ignored")
	assert.False(t, spec.Features.GPUOperator, "features are rebuilt: absent is off")
	assert.Equal(t, &AutoUpgrade{}, spec.AutoUpgrade, "auto-upgrade is rebuilt: absent is on")

	update.Spec.Version = "v1.32.0"
	spec, err = Generate(update, existing, "m", catalogue, DefaultOptions())
	require.NoError(t, err)
	assert.Equal(t, "img-132", spec.Pools[0].Machine.ImageID, "a new version re-picks every image")
	assert.Equal(t, "img-132", spec.ControlPlane.ImageID)
}

// A read never shows the API settings or the networking, shows the platform's default
// auto-upgrade as none and an opt-out as disabled, and always shows the features.
func TestReadShowsAsTheService(t *testing.T) {
	t.Parallel()

	w := write(pool("a", "std", 2))
	w.Spec.API = &unikorn.KubernetesClusterAPI{AllowedPrefixes: []string{"10.0.0.0/8"}}
	w.Spec.Networking = &unikorn.KubernetesClusterNetwork{NodePrefix: "10.1.0.0/24"}
	w.Spec.AutoUpgrade = &unikorn.KubernetesClusterAutoUpgrade{Enabled: true}

	spec, err := Generate(w, nil, "m", testCatalogue, DefaultOptions())
	require.NoError(t, err)

	read := Read(spec)
	assert.Nil(t, read.API)
	assert.Nil(t, read.Networking)
	assert.Nil(t, read.AutoUpgrade)
	assert.Equal(t, &unikorn.KubernetesClusterFeatures{}, read.Features)
	assert.Equal(t, "m", read.ClusterManagerID)

	spec.AutoUpgrade = nil
	assert.Equal(t, &unikorn.KubernetesClusterAutoUpgrade{}, Read(spec).AutoUpgrade)

	days := &unikorn.KubernetesClusterUpgradeDay{Monday: &unikorn.KubernetesClusterUpgradeWindow{Start: 1, End: 2}}
	spec.AutoUpgrade = &AutoUpgrade{Days: days}
	assert.Equal(t, &unikorn.KubernetesClusterAutoUpgrade{Enabled: true, DaysOfWeek: days}, Read(spec).AutoUpgrade)
}

// A cluster charges one of `clusters`, its pools' least machines committed and the
// rest reserved, and as many of their GPUs; the control plane is free.
func TestAllocationsChargeAsTheService(t *testing.T) {
	t.Parallel()

	scaled := pool("a", "std", 5)
	scaled.Autoscaling = &unikorn.KubernetesClusterAutoscaling{MinimumReplicas: 2}

	spec, err := Generate(write(scaled, pool("g", "gpu", 2)), nil, "m", testCatalogue, DefaultOptions())
	require.NoError(t, err)

	allocations, err := Allocations(spec, testCatalogue.Flavors)
	require.NoError(t, err)
	assert.Equal(t, []unikorn.ResourceAllocation{
		{Kind: "clusters", Committed: 1}, {Kind: "servers", Committed: 4, Reserved: 3}, {Kind: "gpus", Committed: 2},
	}, allocations)
}

// A kubeconfig names the cluster's API, the authority that signed its certificate, and
// a client certificate of the cluster's administrators signed by the same authority.
func TestKubeconfigIsWellFormed(t *testing.T) {
	t.Parallel()

	credentials, err := NewCredentials("c-1", time.Now())
	require.NoError(t, err)

	var file struct {
		CurrentContext string `yaml:"current-context"`
		Clusters       []struct {
			Cluster map[string]string `yaml:"cluster"`
		} `yaml:"clusters"`
		Users []struct {
			User map[string]string `yaml:"user"`
		} `yaml:"users"`
	}
	require.NoError(t, yaml.Unmarshal(credentials.Kubeconfig("c-1"), &file))
	require.Len(t, file.Clusters, 1)
	require.Len(t, file.Users, 1)
	assert.True(t, strings.HasPrefix(file.Clusters[0].Cluster["server"], "https://"))

	certificate := func(data string) *x509.Certificate {
		raw, err := base64.StdEncoding.DecodeString(data)
		require.NoError(t, err)

		block, _ := pem.Decode(raw)
		require.NotNil(t, block)

		parsed, err := x509.ParseCertificate(block.Bytes)
		require.NoError(t, err)

		return parsed
	}

	ca := certificate(file.Clusters[0].Cluster["certificate-authority-data"])
	client := certificate(file.Users[0].User["client-certificate-data"])
	require.NoError(t, client.CheckSignatureFrom(ca))
	assert.Equal(t, []string{"system:masters"}, client.Subject.Organization)

	key, err := base64.StdEncoding.DecodeString(file.Users[0].User["client-key-data"])
	require.NoError(t, err)
	assert.Contains(t, string(key), "PRIVATE KEY")
}
