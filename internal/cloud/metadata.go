package cloud

import (
	"maps"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The metadata every family's objects carry, as the families write it.
type (
	WriteMetadata = unikorn.WriteMetadata
	Tag           = unikorn.Tag
	Tags          = unikorn.Tags
)

// TagsOf is tags by name as a service takes them: in name order, so that what is sent
// does not change from one run to the next.
func TagsOf(tags map[string]string) Tags {
	var list Tags

	for _, name := range slices.Sorted(maps.Keys(tags)) {
		list = append(list, Tag{Name: name, Value: tags[name]})
	}

	return list
}

// TagMap is tags by name.
func TagMap(tags Tags) map[string]string {
	byName := make(map[string]string, len(tags))
	for _, tag := range tags {
		byName[tag.Name] = tag.Value
	}

	return byName
}
