package unikorn

import "net/url"

// scopeFilter holds the filters that every v2 list shares (region section 5.5):
// repeatable IDs, OR within a parameter and AND across them, plus `name=value` tag
// selectors that must all match. Its fields mirror ServerQuery so the query types
// convert into it.
type scopeFilter struct {
	Tags            Tags
	OrganizationIDs []string
	ProjectIDs      []string
	RegionIDs       []string
	NetworkIDs      []string
}

func (f scopeFilter) values() url.Values {
	values := url.Values{}

	for _, tag := range f.Tags {
		// url.Values encodes the "=" inside the selector as %3D, as region expects.
		values.Add("tag", tag.Name+"="+tag.Value)
	}

	addAll(values, "organizationID", f.OrganizationIDs)
	addAll(values, "projectID", f.ProjectIDs)
	addAll(values, "regionID", f.RegionIDs)
	addAll(values, "networkID", f.NetworkIDs)

	return values
}

func (q ServerQuery) values() url.Values { return scopeFilter(q).values() }

func (q InstanceQuery) values() url.Values { return scopeFilter(q).values() }

func (q SecurityGroupQuery) values() url.Values { return scopeFilter(q).values() }

func (q NetworkQuery) values() url.Values {
	return scopeFilter{Tags: q.Tags, OrganizationIDs: q.OrganizationIDs, ProjectIDs: q.ProjectIDs, RegionIDs: q.RegionIDs}.values()
}

func (q SSHCertificateAuthorityQuery) values() url.Values {
	return scopeFilter{Tags: q.Tags, OrganizationIDs: q.OrganizationIDs, ProjectIDs: q.ProjectIDs}.values()
}

func (q ImageQuery) values() url.Values {
	values := url.Values{}
	addAll(values, "organizationID", q.OrganizationIDs)
	addAll(values, "status", q.Status)

	if q.Scope != "" {
		values.Set("scope", q.Scope)
	}

	return values
}

// inRegions is the query of a region's catalogue (storage classes, volume classes):
// the given regions, or every region the token sees when none is given.
func inRegions(regionIDs []string) url.Values {
	values := url.Values{}
	addAll(values, "regionID", regionIDs)

	return values
}

func addAll(values url.Values, key string, items []string) {
	for _, item := range items {
		values.Add(key, item)
	}
}
