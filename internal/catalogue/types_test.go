package catalogue

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// staticMetadata is an object's metadata with what the catalogue reads set.
func staticMetadata() unikorn.StaticMetadata {
	var metadata unikorn.StaticMetadata
	metadata.ID, metadata.Name = "id", "ubuntu-24.04"
	metadata.Tags = unikorn.Tags{{Name: cloud.SnapshotInstanceIDTag, Value: "instance"}, {Name: "images.unikorn-cloud.org:source", Value: "upstream"}}
	metadata.CreationTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

	return metadata
}

// What the catalogue's look-ups read of region's region, flavor and image comes back
// whole in the façade's terms.
func TestTheCatalogueKeepsEveryFieldItReads(t *testing.T) {
	t.Parallel()

	region := regionFromWire(&unikorn.Region{
		Metadata: unikorn.ReadMetadata{StaticMetadata: staticMetadata()},
		Spec:     unikorn.RegionSpec{Type: "openstack"},
	})
	cloudtest.RequireAllSet(t, *region)

	flavor := flavorFromWire(&unikorn.Flavor{
		Metadata: staticMetadata(),
		Spec: unikorn.FlavorSpec{
			Baremetal: true, CPUs: 8, Memory: 32, Disk: 100, Architecture: unikorn.ArchitectureX86_64,
			GPU: &unikorn.GPUSpec{Vendor: "NVIDIA", Model: "H100", Memory: 80, PhysicalCount: 1, LogicalCount: 2},
		},
	})
	cloudtest.RequireAllSet(t, *flavor)
	assert.Equal(t, 1, flavor.GPU.Count, "quota counts the physical GPUs")

	image := imageFromWire(&unikorn.Image{Metadata: staticMetadata(), Spec: wireImageSpec(), Status: unikorn.ImageStatus{State: unikorn.ImageReady}})
	cloudtest.RequireAllSet(t, *image)
	assert.Equal(t, "instance", image.InstanceID)
	assert.Len(t, image.Tags, 2, "the platform's tags are shown too")
}

// wireImageSpec is region's description of an image with every field set.
func wireImageSpec() unikorn.ImageSpec {
	return unikorn.ImageSpec{
		Architecture: unikorn.ArchitectureX86_64, SizeGiB: 4, Virtualization: unikorn.VirtualizationVirtualized,
		OS: unikorn.ImageOS{
			Kernel: "linux", Family: "debian", Distro: "ubuntu", Variant: "server", Codename: "noble", Version: "24.04",
		},
		SoftwareVersions: map[string]string{"kubernetes": "v1.31.0"},
		GPU:              &unikorn.ImageGPU{Vendor: "NVIDIA", Driver: "550", Models: []string{"H100"}},
	}
}

// An image's description converts both ways without losing a field, and so does a
// query.
func TestImageSpecKeepsEveryFieldBothWays(t *testing.T) {
	t.Parallel()

	in := wireImageSpec()
	cloudtest.RequireAllSet(t, in)

	spec := ImageSpecOf(in)
	cloudtest.RequireAllSet(t, spec)
	assert.Equal(t, in, spec.Wire())

	query := ImageQuery{OrganizationIDs: []string{"organization"}, Scope: ImageScopeOwned, Status: []string{ImageReady}}
	cloudtest.RequireAllSet(t, query)
	cloudtest.RequireAllSet(t, query.wire())
	assert.Equal(t, unikorn.ImageQuery{OrganizationIDs: query.OrganizationIDs, Scope: query.Scope, Status: query.Status}, query.wire())
}
