package volumes

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// What region holds of a volume comes back whole from the façade's volume, and a
// create made of that volume sends what it was made of.
func TestVolumeKeepsEveryFieldBothWays(t *testing.T) {
	t.Parallel()

	observed, attached := int64(20), time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)
	in := unikorn.Volume{
		Metadata: cloudtest.ProjectMetadata(),
		Spec:     unikorn.VolumeSpec{NetworkID: "network", VolumeClassID: "fast", SizeGiB: 20},
		Status:   unikorn.VolumeStatus{RegionID: "region", SizeGiB: &observed, AttachedAt: &attached},
	}
	cloudtest.RequireAllSet(t, in.Spec)
	cloudtest.RequireAllSet(t, in.Status)

	volume := fromWire(&in)
	cloudtest.RequireAllSet(t, *volume)

	create := Create{Metadata: volume.Metadata.WriteMetadata, NetworkID: volume.NetworkID, ClassID: volume.ClassID, SizeGiB: volume.SizeGiB}
	assert.Equal(t, in.Spec, create.wire().Spec)
	assert.Equal(t, in.Metadata.WriteMetadata, create.wire().Metadata)
}

// A volume class keeps all region says of it.
func TestClassKeepsEveryField(t *testing.T) {
	t.Parallel()

	minimum, maximum, iops, throughput := int64(10), int64(2048), 25000, 500

	var in unikorn.VolumeClass
	in.Metadata.ID, in.Metadata.Name, in.Metadata.Description = "fast", "sim-fast-volume", "Simulated NVMe block storage"
	in.Spec = unikorn.VolumeClassSpec{
		RegionID: "region", MinimumSizeGiB: &minimum, MaximumSizeGiB: &maximum, SupportedFlavorIDs: []string{"flavor"},
		Media: NVMe, Performance: &unikorn.VolumePerformance{MaxIOPS: &iops, MaxThroughputMiBps: &throughput}, Encrypted: true,
	}
	cloudtest.RequireAllSet(t, in.Spec)
	cloudtest.RequireAllSet(t, *in.Spec.Performance)

	cloudtest.RequireAllSet(t, *classFromWire(&in))
}
