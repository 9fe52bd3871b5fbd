package compute

import (
	"cmp"
	"context"
	"maps"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// ListQuery selects instances. Each field narrows the selection; an empty one
// selects everything the token can see in that dimension.
type ListQuery struct {
	OrganizationID string
	ProjectID      string
	RegionID       string
	NetworkID      string
	// Tags must all be carried by an instance, each with exactly the given value.
	Tags map[string]string
}

// Listing is what List finds.
type Listing struct {
	// Instances are ordered by name, then ID, so that the same cloud lists the same way.
	Instances []*Instance
	// Conflicts are instances that more than one server claims to realize. Get
	// refuses to choose between them, so List does not show one either.
	Conflicts []*ConsistencyError
}

// List finds the instances a query selects: the servers in its scope that carry the
// instance tag, with any value. Region can only select a tag by name and value, so
// the scope is queried and the tag is looked for here.
//
// Servers that are being deleted are left out: the instance is on its way out, and
// importing it would only find it gone.
func (s *Service) List(ctx context.Context, q ListQuery) (*Listing, error) {
	servers, err := s.client.ListServers(ctx, unikorn.ServerQuery{
		Tags:            serverTags(q.Tags),
		OrganizationIDs: cloud.Only(q.OrganizationID),
		ProjectIDs:      cloud.Only(q.ProjectID),
		RegionIDs:       cloud.Only(q.RegionID),
		NetworkIDs:      cloud.Only(q.NetworkID),
	})
	if err != nil {
		return nil, err
	}

	byInstance := map[string][]*unikorn.Server{}

	for i := range servers {
		if id, ok := servers[i].Metadata.Tags.Get(InstanceIDTag); ok {
			byInstance[id] = append(byInstance[id], &servers[i])
		}
	}

	listing := &Listing{}

	for _, id := range slices.Sorted(maps.Keys(byInstance)) {
		claimants := byInstance[id]

		if len(claimants) > 1 {
			ids := make([]string, len(claimants))
			for i, server := range claimants {
				ids[i] = server.Metadata.ID
			}

			listing.Conflicts = append(listing.Conflicts, &ConsistencyError{InstanceID: id, ServerIDs: ids})

			continue
		}

		if claimants[0].Metadata.ProvisioningStatus == unikorn.ProvisioningDeprovisioning {
			continue
		}

		listing.Instances = append(listing.Instances, instanceFromServer(claimants[0]))
	}

	sortInstances(listing.Instances)

	return listing, nil
}

// sortInstances orders instances by name, then ID, so that the same cloud lists the
// same way whatever the back end.
func sortInstances(instances []*Instance) {
	slices.SortFunc(instances, func(a, b *Instance) int {
		return cmp.Or(cmp.Compare(a.Spec.Name, b.Spec.Name), cmp.Compare(a.ID, b.ID))
	})
}
