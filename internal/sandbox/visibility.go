package sandbox

import (
	"context"
	"net/http"
)

// Visibility follows region: a list selects the organizations the caller belongs to
// and, within them, only the objects of projects it may use; the rest is dropped
// without an error, so a token of another organization sees an empty list where the
// fixture user sees its objects, and reads of those objects directly are forbidden
// (403), never not found. With visibility off (Options.ShowInvisible) lists flatter
// the caller with every object of the organizations it names, or of all organizations.

// showInvisibleKey marks a request whose lists show what the token may not read.
type showInvisibleKey struct{}

// withVisibility marks the request when visibility is off. Callers hold mu.
func (s *Sandbox) withVisibility(r *http.Request) *http.Request {
	if !s.showInvisible {
		return r
	}

	return r.WithContext(context.WithValue(r.Context(), showInvisibleKey{}, true))
}

// showsInvisible reports whether the request's lists show what the token may not read.
func showsInvisible(r *http.Request) bool {
	show, _ := r.Context().Value(showInvisibleKey{}).(bool)

	return show
}

// visibleOrganizations are the organizations a list may select from: the caller's,
// or with visibility off every organization.
func visibleOrganizations(r *http.Request, caller *principal) []string {
	if !showsInvisible(r) {
		return caller.organizations()
	}

	ids := make([]string, 0, len(organizations))
	for _, organization := range organizations {
		ids = append(ids, organization.Metadata.ID)
	}

	return ids
}
