package volumes

import (
	"cmp"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// classes are the catalogue's volume classes, in region's order: by region, then
// name, then ID. Upstream's simulated classes name no flavor, which compute reads as
// attaching to none; the sandbox's name the virtual flavors whose volumes an instance
// may attach (bare metal takes no volumes), the fast class only the larger ones.
var classes = sortedClasses([]unikorn.VolumeClass{
	volumeClass(fixture.VolumeClassStandardID, "sim-standard-volume", "Simulated SSD block storage", fixture.RegionID, unikorn.VolumeClassSpec{
		MinimumSizeGiB: ptr(int64(1)), MaximumSizeGiB: ptr(int64(16384)), Media: unikorn.VolumeMediaSSD,
		SupportedFlavorIDs: []string{fixture.FlavorStandardID, fixture.FlavorGPUID, fixture.FlavorArmID, fixture.FlavorTinyID},
	}),
	volumeClass(fixture.VolumeClassFastID, "sim-fast-volume", "Simulated NVMe block storage", fixture.RegionID, unikorn.VolumeClassSpec{
		MinimumSizeGiB: ptr(int64(10)), MaximumSizeGiB: ptr(int64(2048)), Media: unikorn.VolumeMediaNVMe, Encrypted: true,
		Performance:        &unikorn.VolumePerformance{MaxIOPS: ptr(25000), MaxThroughputMiBps: ptr(500)},
		SupportedFlavorIDs: []string{fixture.FlavorStandardID, fixture.FlavorGPUID},
	}),
	volumeClass(fixture.VolumeClassPrivateID, "sim-private-volume", "Simulated SSD block storage of the private region", fixture.PrivateRegionID,
		unikorn.VolumeClassSpec{
			MinimumSizeGiB: ptr(int64(1)), MaximumSizeGiB: ptr(int64(1024)), Media: unikorn.VolumeMediaSSD,
			SupportedFlavorIDs: []string{fixture.FlavorStandardID},
		}),
})

func ptr[T any](v T) *T { return &v }

// volumeClass is a class as region shows it: a static object whose creation time is
// zero, of its region.
func volumeClass(id, name, description, regionID string, spec unikorn.VolumeClassSpec) unikorn.VolumeClass {
	spec.RegionID = regionID

	return unikorn.VolumeClass{
		Metadata: unikorn.StaticMetadata{WriteMetadata: unikorn.WriteMetadata{Name: name, Description: description}, ID: id},
		Spec:     spec,
	}
}

func sortedClasses(in []unikorn.VolumeClass) []unikorn.VolumeClass {
	slices.SortStableFunc(in, func(a, b unikorn.VolumeClass) int {
		return cmp.Or(cmp.Compare(a.Spec.RegionID, b.Spec.RegionID), cmp.Compare(a.Metadata.Name, b.Metadata.Name),
			cmp.Compare(a.Metadata.ID, b.Metadata.ID))
	})

	return in
}

// listClasses lists the classes of the regions asked for (each once, however often
// named), or of every region, that the caller may see: a region it may not see, or
// that does not exist, is left out, never refused. None is an empty list.
func (h *handlers) listClasses(req *core.Request) (*core.Reply, error) {
	if !readsClasses(req.Caller) {
		return nil, core.RBACError(rbacVolumeClasses, core.OpRead, "organization")
	}

	asked := req.URL.Query()["regionID"]
	listed := []unikorn.VolumeClass{}

	for _, class := range classes {
		if !core.OneOf(asked, class.Spec.RegionID) {
			continue
		}

		if _, visible := core.Visible[unikorn.Region](req.Store, req.Caller, class.Spec.RegionID); visible || core.ShowsInvisible(req.Request) {
			listed = append(listed, class)
		}
	}

	return core.OK(listed), nil
}

// readsClasses is region's check that the caller may read volume classes, which every
// role of an organization grants at its scope.
func readsClasses(caller *core.Caller) bool {
	if caller.Legacy || len(caller.ACL.Global) > 0 {
		return true
	}

	return slices.ContainsFunc(caller.Organizations(), func(id string) bool {
		return caller.ACL.AllowOrganization(id, rbacVolumeClasses, core.OpRead) == nil
	})
}
