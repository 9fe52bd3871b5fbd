package sandbox

import (
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// listQuery is the selection every v2 list accepts: repeatable organizationID,
// projectID, regionID and networkID (OR within one, AND across them) and tag
// selectors that must all match.
type listQuery struct {
	// organizations are the requested organizations the caller belongs to; without an
	// organizationID parameter, every organization it belongs to.
	organizations []string
	// showInvisible keeps objects of projects the caller may not use.
	showInvisible bool
	projects      []string
	regions       []string
	networks      []string
	tags          unikorn.Tags
}

// listing is where a listed object lives and how it is tagged.
type listing struct {
	organizationID string
	projectID      string
	regionID       string
	networkID      string
	tags           unikorn.Tags
}

func parseListQuery(r *http.Request, caller *principal) (*listQuery, error) {
	values := r.URL.Query()

	tags, err := parseTagSelectors(values["tag"])
	if err != nil {
		return nil, err
	}

	q := &listQuery{
		projects: values["projectID"],
		regions:  values["regionID"],
		networks: values["networkID"],
		tags:     tags,

		showInvisible: showsInvisible(r),
	}

	requested, filtered := values["organizationID"], len(values["organizationID"]) > 0

	for _, organizationID := range visibleOrganizations(r, caller) {
		if !filtered || slices.Contains(requested, organizationID) {
			q.organizations = append(q.organizations, organizationID)
		}
	}

	sort.Strings(q.organizations)

	return q, nil
}

// parseTagSelectors decodes `tag=name=value` selectors; each needs exactly one "=".
func parseTagSelectors(selectors []string) (unikorn.Tags, error) {
	tags := make(unikorn.Tags, 0, len(selectors))

	for _, selector := range selectors {
		if strings.Count(selector, "=") != 1 {
			return nil, errBadRequest("tag decode failed")
		}

		name, value, _ := strings.Cut(selector, "=")
		tags = append(tags, unikorn.Tag{Name: name, Value: value})
	}

	return tags, nil
}

// matches reports whether an object the caller may read is selected.
func (q *listQuery) matches(caller *principal, l listing) bool {
	if !slices.Contains(q.organizations, l.organizationID) || (!q.showInvisible && !caller.canUse(l.organizationID, l.projectID)) {
		return false
	}

	if !oneOf(q.projects, l.projectID) || !oneOf(q.regions, l.regionID) || !oneOf(q.networks, l.networkID) {
		return false
	}

	for _, want := range q.tags {
		if value, ok := l.tags.Get(want.Name); !ok || value != want.Value {
			return false
		}
	}

	return true
}

// oneOf is an OR filter: an absent filter selects everything.
func oneOf(filter []string, value string) bool {
	return len(filter) == 0 || slices.Contains(filter, value)
}

// selectList selects a kind's records and renders them in ID order, the order of
// Kubernetes-backed lists. When no organization remains to list, the result is nil,
// which encodes as `null` exactly as the real handler's early return does; otherwise it
// is a possibly empty array. It orders only what the list selects, so that a list
// costs little more than what it returns however many records the kind holds.
func selectList[R, T any](q *listQuery, caller *principal, records map[string]*R, render func(*R) (T, listing)) []T {
	if len(q.organizations) == 0 {
		return nil
	}

	type selected struct {
		id   string
		item T
	}

	var matches []selected

	for id, record := range records {
		if item, l := render(record); q.matches(caller, l) {
			matches = append(matches, selected{id: id, item: item})
		}
	}

	slices.SortFunc(matches, func(a, b selected) int { return strings.Compare(a.id, b.id) })

	items := make([]T, len(matches))
	for i := range matches {
		items[i] = matches[i].item
	}

	return items
}

// byID returns a record map's values in ID order, the order of Kubernetes-backed lists.
func byID[R any](records map[string]*R) []*R {
	ids := make([]string, 0, len(records))
	for id := range records {
		ids = append(ids, id)
	}

	sort.Strings(ids)

	sorted := make([]*R, 0, len(ids))
	for _, id := range ids {
		sorted = append(sorted, records[id])
	}

	return sorted
}

// projectListing is the listing of an object scoped by project-scoped metadata.
func projectListing(metadata *unikorn.ProjectScopedMetadata, regionID, networkID string) listing {
	return listing{
		organizationID: metadata.OrganizationID,
		projectID:      metadata.ProjectID,
		regionID:       regionID,
		networkID:      networkID,
		tags:           metadata.Tags,
	}
}
