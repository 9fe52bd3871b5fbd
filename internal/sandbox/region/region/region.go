// Package region is region's catalogue (pkg/handler/region): the regions an
// organization may use and their flavors, fixed and never saved, and the region
// service itself as the sandbox serves it (its document, its own base URL, its
// version). Other families read regions as unikorn.Region, which a caller sees only
// where region's ACL lets it (Visible, RequireRegion), and flavors as unikorn.Flavor.
package region

import (
	"net/http"
	"slices"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/openapi"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Family is region's catalogue and service.
var Family = core.Family{Name: "region", Register: register}

// Prefix is region's own base URL on the sandbox's listener.
const Prefix = "/region"

// The release region reports: its binary's name, as Unikorn's constants.Application
// takes it from os.Args[0], and the version of region the sandbox follows
// (pkg/handler/handler_version.go).
const (
	application = "unikorn-region-controller"
	release     = "1.20.0"
)

const (
	rbacRegions = "region:regions"
	rbacFlavors = "region:flavors"
)

// catalogueRegion is a region and, when it is private, the organizations that may use
// it (its spec.security.organizations, which region never shows).
type catalogueRegion struct {
	region        unikorn.Region
	organizations []string
}

// regions are in name order, as region lists its regions. Both offer the same flavors
// and global images.
var regions = []catalogueRegion{{
	region: unikorn.Region{Metadata: core.ProvisionedMetadata(fixture.RegionID, "sandbox-1"), Spec: unikorn.RegionSpec{Type: "simulated"}},
}, {
	region:        unikorn.Region{Metadata: core.ProvisionedMetadata(fixture.PrivateRegionID, "sandbox-private"), Spec: unikorn.RegionSpec{Type: "simulated"}},
	organizations: []string{fixture.OrganizationID},
}}

// flavors are in the contract's order: GPU count, then CPUs, then memory.
var flavors = []unikorn.Flavor{
	fixtureFlavor(fixture.FlavorTinyID, "sim-tiny-1", unikorn.FlavorSpec{CPUs: 1, Memory: 2, Disk: 10, Architecture: unikorn.ArchitectureX86_64}),
	fixtureFlavor(fixture.FlavorArmID, "sim-arm-2", unikorn.FlavorSpec{CPUs: 2, Memory: 4, Disk: 40, Architecture: unikorn.ArchitectureAarch64}),
	fixtureFlavor(fixture.FlavorStandardID, "sim-standard-4", unikorn.FlavorSpec{CPUs: 4, Memory: 8, Disk: 100, Architecture: unikorn.ArchitectureX86_64}),
	fixtureFlavor(fixture.FlavorMetalID, "sim-metal-32", unikorn.FlavorSpec{CPUs: 32, Memory: 128, Disk: 1000, Architecture: unikorn.ArchitectureX86_64, Baremetal: true}),
	fixtureFlavor(fixture.FlavorGPUID, "sim-gpu-8", unikorn.FlavorSpec{
		CPUs: 8, Memory: 16, Disk: 200, Architecture: unikorn.ArchitectureX86_64,
		GPU: &unikorn.GPUSpec{Vendor: "NVIDIA", Model: "L4", Memory: 16, PhysicalCount: 1, LogicalCount: 1},
	}),
}

// fixtureFlavor has only an ID and a name: flavors carry no times or statuses.
func fixtureFlavor(id, name string, spec unikorn.FlavorSpec) unikorn.Flavor {
	return unikorn.Flavor{
		Metadata: unikorn.StaticMetadata{WriteMetadata: unikorn.WriteMetadata{Name: name}, ID: id},
		Spec:     spec,
	}
}

func register(s *core.Server) error {
	core.ExposeCatalogue(s, func() []catalogueRegion { return regions }, func(r *catalogueRegion) string { return r.region.Metadata.ID }, core.View[catalogueRegion, unikorn.Region]{
		Show:    func(r *catalogueRegion) *unikorn.Region { return &r.region },
		Visible: func(r *catalogueRegion, caller *core.Caller) bool { return r.visibleTo(caller) },
	})

	core.ExposeCatalogue(s, func() []unikorn.Flavor { return flavors }, func(f *unikorn.Flavor) string { return f.Metadata.ID }, core.View[unikorn.Flavor, unikorn.Flavor]{
		Show: func(f *unikorn.Flavor) *unikorn.Flavor { return f },
	})

	// Region and identity share the sandbox's root; region is also served on a base
	// URL of its own, where its routes alone are found and /api/version answers as
	// region.
	s.Declare(core.Service{
		Name: "region", Document: openapi.Region, Prefix: Prefix, Owns: owns,
		Version: unikorn.ServiceVersion{Name: application, Version: release},
	})

	s.Handle("GET /api/v1/organizations/{organizationID}/regions", listRegions)
	s.Handle("GET /api/v1/organizations/{organizationID}/regions/{regionID}/flavors", listFlavors)

	return nil
}

// owns reports whether an API path is region's: region v1.20.0's paths are its v2 API
// and, in v1, an organization's regions and what hangs off them; identity has neither.
func owns(path string) bool {
	return strings.HasPrefix(path, "/api/v2/") || strings.HasPrefix(path, "/api/v1/organizations/{organizationID}/regions")
}

// visibleTo is region's ACL on a region (pkg/handler/region checkAccess): a region
// without organizations is everyone's; a private one is its organizations' and theirs
// whose global scope reads regions (the platform's administrators and services).
// Region answers 404 alike for a region that does not exist and one the caller may
// not use, so as not to tell that a private region exists.
func (r *catalogueRegion) visibleTo(caller *core.Caller) bool {
	if r.organizations == nil || slices.Contains(caller.ACL.Global[rbacRegions], core.OpRead) {
		return true
	}

	for _, id := range caller.Organizations() {
		if slices.Contains(r.organizations, id) {
			return true
		}
	}

	return false
}

func listRegions(req *core.Request) (*core.Reply, error) {
	if err := core.RequireOrganization(req.Caller, req.PathValue("organizationID"), rbacRegions, core.OpRead); err != nil {
		return nil, err
	}

	visible := []unikorn.Region{}

	for i := range regions {
		if regions[i].visibleTo(req.Caller) {
			visible = append(visible, regions[i].region)
		}
	}

	return core.OK(visible), nil
}

func listFlavors(req *core.Request) (*core.Reply, error) {
	if err := core.RequireRegion(req, rbacFlavors, core.OpRead); err != nil {
		return nil, err
	}

	return &core.Reply{Status: http.StatusOK, Body: flavors, CacheControl: core.CatalogueCacheControl}, nil
}
