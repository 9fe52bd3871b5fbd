package cloud

import (
	"maps"
	"slices"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// WriteMetadata is what a user writes of every family's object: its name, its
// description and its tags.
type WriteMetadata struct {
	Name        string
	Description string
	Tags        Tags
}

// Tag is a free-form name and value.
type Tag struct {
	Name  string
	Value string
}

// Tags are an object's tags, in the order the service keeps them.
type Tags []Tag

// Get returns the value of the named tag and whether it is present.
func (t Tags) Get(name string) (string, bool) {
	return t.Wire().Get(name)
}

// WriteMetadataOf is a service's write metadata in the façade's terms.
func WriteMetadataOf(in unikorn.WriteMetadata) WriteMetadata {
	return WriteMetadata{Name: in.Name, Description: in.Description, Tags: TagsFromWire(in.Tags)}
}

// Wire is the metadata as a service takes it.
func (m WriteMetadata) Wire() unikorn.WriteMetadata {
	return unikorn.WriteMetadata{Name: m.Name, Description: m.Description, Tags: m.Tags.Wire()}
}

// TagsFromWire are a service's tags in the façade's terms.
func TagsFromWire(in unikorn.Tags) Tags {
	var tags Tags
	for _, tag := range in {
		tags = append(tags, Tag(tag))
	}

	return tags
}

// Wire are the tags as a service takes them.
func (t Tags) Wire() unikorn.Tags {
	var tags unikorn.Tags
	for _, tag := range t {
		tags = append(tags, unikorn.Tag(tag))
	}

	return tags
}

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

// UserTags are the tags a caller set on a service's object, by name, without those
// Unikorn reserves for itself.
func UserTags(tags unikorn.Tags) map[string]string {
	user := TagMap(TagsFromWire(tags))
	maps.DeleteFunc(user, func(name, _ string) bool { return IsReservedTag(name) })

	return user
}
