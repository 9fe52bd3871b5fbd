package storage

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// storageClass is a file storage class of the catalogue. A class with an
// organization is that organization's alone; one without is everyone's.
type storageClass struct {
	class          unikorn.StorageClass
	organizationID string
}

// storageClasses are in ID order, as region lists them.
var storageClasses = []storageClass{
	fixtureStorageClass(fixture.StorageClassStandardID, "sim-nfs-standard", fixture.RegionID, "", 4, unikorn.StorageProtocolNFSv4),
	fixtureStorageClass(fixture.StorageClassLegacyID, "sim-nfs-legacy", fixture.RegionID, "", 1, unikorn.StorageProtocolNFSv3),
	fixtureStorageClass(fixture.StorageClassDedicatedID, "sandbox-dedicated", fixture.RegionID, fixture.OrganizationID, 8,
		unikorn.StorageProtocolNFSv3, unikorn.StorageProtocolNFSv4),
	fixtureStorageClass(fixture.StorageClassForeignID, "foreign-dedicated", fixture.RegionID, fixture.ForeignOrganizationID, 2, unikorn.StorageProtocolNFSv4),
	fixtureStorageClass(fixture.StorageClassRemoteID, "remote-nfs", fixture.RemoteRegionID, "", DefaultParallelism, unikorn.StorageProtocolNFSv4),
}

func fixtureStorageClass(id, name, regionID, organizationID string, parallelism int, protocols ...string) storageClass {
	return storageClass{
		class: unikorn.StorageClass{
			Metadata: core.ProvisionedMetadata(id, name),
			Spec:     unikorn.StorageClassSpec{RegionID: regionID, Protocols: protocols, Parallelism: parallelism},
		},
		organizationID: organizationID,
	}
}

// rbacStorageClasses is what region checks of a class labelled with an organization.
const rbacStorageClasses = "region:filestorageclass:v2"

// visibleTo says whether the caller may read the class: every class without an
// organization, and those of organizations it belongs to.
func (c *storageClass) visibleTo(caller *core.Caller) bool {
	return c.organizationID == "" || caller.IsMember(c.organizationID)
}

// findClass is region's read of a class for a create or an update: a class
// that does not exist is a 422, one of another organization is forbidden.
func findClass(caller *core.Caller, id string) (*storageClass, error) {
	for i := range storageClasses {
		if class := &storageClasses[i]; class.class.Metadata.ID == id {
			if !class.visibleTo(caller) {
				return nil, core.RBACError(rbacStorageClasses, core.OpRead, "organization")
			}

			return class, nil
		}
	}

	return nil, core.Unprocessable("storage class not found")
}

// listClasses lists the classes the caller may read, of the regions asked
// for. Region checks no permission for the list itself, only for each class.
func (h *handlers) listClasses(req *core.Request) (*core.Reply, error) {
	regionIDs := req.URL.Query()["regionID"]
	classes := []unikorn.StorageClass{}

	for i := range storageClasses {
		class := &storageClasses[i]
		if core.OneOf(regionIDs, class.class.Spec.RegionID) && (class.visibleTo(req.Caller) || core.ShowsInvisible(req.Request)) {
			classes = append(classes, class.class)
		}
	}

	return core.OK(classes), nil
}
