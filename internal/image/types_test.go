package image

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/catalogue"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// What region holds of an image comes back whole from the façade's image, and an
// import made of its description sends all of it but the size, which region measures.
func TestImageKeepsEveryFieldBothWays(t *testing.T) {
	t.Parallel()

	var metadata unikorn.StaticMetadata
	metadata.ID, metadata.Name, metadata.Description = "id", "golden", "the golden image"
	metadata.Tags = unikorn.Tags{{Name: cloud.SnapshotInstanceIDTag, Value: "instance"}, {Name: "team", Value: "web"}}
	metadata.CreationTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

	in := unikorn.Image{
		Metadata: metadata,
		Spec: unikorn.ImageSpec{
			Architecture: unikorn.ArchitectureX86_64, SizeGiB: 4, Virtualization: unikorn.VirtualizationVirtualized,
			OS: unikorn.ImageOS{
				Kernel: "linux", Family: "debian", Distro: "ubuntu", Variant: "server", Codename: "noble", Version: "24.04",
			},
			SoftwareVersions: map[string]string{"kubernetes": "v1.31.0"},
			GPU:              &unikorn.ImageGPU{Vendor: "NVIDIA", Driver: "550", Models: []string{"H100"}},
		},
		Status: unikorn.ImageStatus{State: unikorn.ImageReady},
	}
	cloudtest.RequireAllSet(t, in.Spec)

	image := From(&in, Ref{OrganizationID: "organization", RegionID: "region"})
	cloudtest.RequireAllSet(t, *image)
	assert.Equal(t, "instance", image.InstanceID, "the provenance tag says whose snapshot it is")
	assert.Equal(t, map[string]string{"team": "web"}, image.Tags, "and is not one of the caller's tags")

	create := createSpec(image.Spec, "https://images.example.com/golden.raw")
	cloudtest.RequireAllSet(t, create)
	assert.Equal(t, unikorn.ImageCreateSpec{
		URI: "https://images.example.com/golden.raw", Architecture: in.Spec.Architecture, Virtualization: in.Spec.Virtualization,
		OS: in.Spec.OS, SoftwareVersions: in.Spec.SoftwareVersions, GPU: in.Spec.GPU,
	}, create)
	assert.Equal(t, catalogue.ImageSpecOf(create.ImageSpec()), catalogue.ImageSpec{
		Architecture: image.Spec.Architecture, Virtualization: image.Spec.Virtualization, OS: image.Spec.OS,
		SoftwareVersions: image.Spec.SoftwareVersions, GPU: image.Spec.GPU,
	}, "all but the size")
}
