package core

import (
	"context"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// ListQuery is the selection every v2 list accepts: repeatable organizationID,
// projectID, regionID and networkID (OR within one, AND across them) and tag
// selectors that must all match.
type ListQuery struct {
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

// Listing is where a listed object lives and how it is tagged.
type Listing struct {
	OrganizationID string
	ProjectID      string
	RegionID       string
	NetworkID      string
	Tags           unikorn.Tags
}

// ParseListQuery reads a list's selection from its query.
func ParseListQuery(r *http.Request, caller *Caller) (*ListQuery, error) {
	values := r.URL.Query()

	tags, err := parseTagSelectors(values["tag"])
	if err != nil {
		return nil, err
	}

	q := &ListQuery{
		projects: values["projectID"],
		regions:  values["regionID"],
		networks: values["networkID"],
		tags:     tags,

		showInvisible: ShowsInvisible(r),
	}

	requested, filtered := values["organizationID"], len(values["organizationID"]) > 0

	for _, organizationID := range VisibleOrganizations(r, caller) {
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
			return nil, BadRequest("tag decode failed")
		}

		name, value, _ := strings.Cut(selector, "=")
		tags = append(tags, unikorn.Tag{Name: name, Value: value})
	}

	return tags, nil
}

// Tags are the tag selectors the list asks for, which must all match.
func (q *ListQuery) Tags() unikorn.Tags {
	return q.tags
}

// matches reports whether an object the caller may read is selected: one its ACL lets
// it read on endpoint in the object's project, as region's lists ask of every item.
func (q *ListQuery) matches(caller *Caller, endpoint string, l Listing) bool {
	if !slices.Contains(q.organizations, l.OrganizationID) ||
		(!q.showInvisible && AllowInProject(caller, l.OrganizationID, l.ProjectID, endpoint, OpRead) != nil) {
		return false
	}

	if !OneOf(q.projects, l.ProjectID) || !OneOf(q.regions, l.RegionID) || !OneOf(q.networks, l.NetworkID) {
		return false
	}

	for _, want := range q.tags {
		if value, ok := l.Tags.Get(want.Name); !ok || value != want.Value {
			return false
		}
	}

	return true
}

// OneOf is an OR filter: an absent filter selects everything.
func OneOf(filter []string, value string) bool {
	return len(filter) == 0 || slices.Contains(filter, value)
}

// SelectList selects a kind's records and renders them in ID order, the order of
// Kubernetes-backed lists. When no organization remains to list, the result is nil,
// which encodes as `null` exactly as the real handler's early return does; otherwise it
// is a possibly empty array. It orders only what the list selects, so that a list
// costs little more than what it returns however many records the kind holds.
func SelectList[R, T any](q *ListQuery, caller *Caller, endpoint string, records map[string]*R, render func(*R) (T, Listing)) []T {
	if len(q.organizations) == 0 {
		return nil
	}

	type selected struct {
		id   string
		item T
	}

	var matches []selected

	for id, record := range records {
		if item, l := render(record); q.matches(caller, endpoint, l) {
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

// ProjectListing is the listing of an object scoped by project-scoped metadata.
func ProjectListing(metadata *unikorn.ProjectScopedMetadata, regionID, networkID string) Listing {
	return Listing{
		OrganizationID: metadata.OrganizationID,
		ProjectID:      metadata.ProjectID,
		RegionID:       regionID,
		NetworkID:      networkID,
		Tags:           metadata.Tags,
	}
}

// Visibility follows region: a list selects the organizations the caller belongs to
// and, within them, only the objects it may read, in projects it may use; the rest is dropped
// without an error, so a token of another organization sees an empty list where the
// fixture user sees its objects, and reads of those objects directly are forbidden
// (403), never not found. With visibility off (Options.ShowInvisible) lists flatter
// the caller with every object of the organizations it names, or of all organizations.

// showInvisibleKey marks a request whose lists show what the token may not read.
type showInvisibleKey struct{}

// withVisibility marks the request when visibility is off. Callers hold mu.
func (s *Server) withVisibility(r *http.Request) *http.Request {
	if !s.showInvisible {
		return r
	}

	return r.WithContext(context.WithValue(r.Context(), showInvisibleKey{}, true))
}

// ShowsInvisible reports whether the request's lists show what the token may not read.
func ShowsInvisible(r *http.Request) bool {
	show, _ := r.Context().Value(showInvisibleKey{}).(bool)

	return show
}

// VisibleOrganizations are the organizations a list may select from: the caller's,
// or with visibility off every organization.
func VisibleOrganizations(r *http.Request, caller *Caller) []string {
	if !ShowsInvisible(r) {
		return caller.Organizations()
	}

	return slices.Clone(caller.every)
}
