package cloud

import (
	"maps"
	"slices"
	"strings"

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

// The tags Unikorn reserves that link objects to compute's instances, which several
// families read: networking and images name the instances that hold them, the
// catalogue says which instance a snapshot was taken of.
const (
	// InstanceIDTag links a server to the instance it realizes.
	InstanceIDTag = "compute.unikorn-cloud.org/instance-id"
	// SnapshotInstanceIDTag marks images snapshotted from an instance (images use the
	// colon form of the reserved prefix, servers the slash form).
	SnapshotInstanceIDTag = "compute.unikorn-cloud.org:instance-id"

	// ReservedTagDomain is the domain of the tag prefixes Unikorn keeps for itself.
	ReservedTagDomain = "unikorn-cloud.org"
)

// IsReservedTag reports whether a tag name uses a prefix Unikorn keeps for itself
// (`<anything>.unikorn-cloud.org` followed by `:` or `/`, or the bare domain).
func IsReservedTag(name string) bool {
	domain, _, _ := strings.Cut(name, "/")
	domain, _, _ = strings.Cut(domain, ":")

	return domain == ReservedTagDomain || strings.HasSuffix(domain, "."+ReservedTagDomain)
}

// UserTags are the tags a caller set, without those Unikorn reserves for itself.
func UserTags(tags Tags) map[string]string {
	user := TagMap(tags)
	maps.DeleteFunc(user, func(name, _ string) bool { return IsReservedTag(name) })

	return user
}
