package cloudtest

import (
	"slices"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// Held is what a search for holders found, as a test compares it: each holder as
// `kind "name"`, sorted, and each list it could not read as why, without the
// failure's own words (which name a trace ID).
func Held(holders cloud.Holders) (found, unread []string) {
	for _, holder := range holders.Found {
		found = append(found, holder.Kind+` "`+holder.Name+`"`)
	}

	for _, list := range holders.Unread {
		reason, _, _ := strings.Cut(list.String(), " (")
		unread = append(unread, reason)
	}

	slices.Sort(found)

	return found, unread
}
