package conformance

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
)

// OpenAPI 3.0 objects are open: a member that a schema does not declare validates,
// and so does a query parameter that an operation does not declare. The real services
// never send such members, because they serialize types generated from these
// documents, and they ignore what they do not declare. So an undeclared member in a
// response is sandbox behaviour that real Unikorn lacks, and an undeclared member or
// query parameter in a request is something the client believes it sets but the
// service drops. The checks below close that gap.

// undeclaredQueryParameters returns the query parameters the operation does not declare.
func undeclaredQueryParameters(route *routers.Route, query url.Values) []string {
	declared := map[string]bool{}

	for _, parameters := range []openapi3.Parameters{route.PathItem.Parameters, route.Operation.Parameters} {
		for _, parameter := range parameters {
			if parameter.Value != nil && parameter.Value.In == openapi3.ParameterInQuery {
				declared[parameter.Value.Name] = true
			}
		}
	}

	var undeclared []string

	for name := range query {
		if !declared[name] {
			undeclared = append(undeclared, name)
		}
	}

	slices.Sort(undeclared)

	return undeclared
}

// undeclaredBodyMembers returns the JSON pointer of every member of a JSON body that
// the schema content declares for its media type does not declare. A body of a media
// type without a schema, or that is not JSON, is left to the validator.
func undeclaredBodyMembers(content openapi3.Content, header http.Header, body []byte) []string {
	media := content.Get(header.Get("Content-Type"))
	if media == nil || media.Schema == nil || media.Schema.Value == nil {
		return nil
	}

	var value any
	if err := json.Unmarshal(body, &value); err != nil {
		return nil
	}

	undeclared := undeclaredMembers(media.Schema.Value, value, "")
	slices.Sort(undeclared)

	return undeclared
}

func undeclaredMembers(schema *openapi3.Schema, value any, pointer string) []string {
	var undeclared []string

	switch value := value.(type) {
	case map[string]any:
		properties, additional, open := members(schema)

		for name, member := range value {
			memberPointer := pointer + "/" + name

			switch {
			case properties[name] != nil:
				undeclared = append(undeclared, undeclaredMembers(properties[name], member, memberPointer)...)
			case additional != nil:
				undeclared = append(undeclared, undeclaredMembers(additional, member, memberPointer)...)
			case !open:
				undeclared = append(undeclared, memberPointer)
			}
		}
	case []any:
		if items := itemsOf(schema); items != nil {
			for i, item := range value {
				undeclared = append(undeclared, undeclaredMembers(items, item, pointer+"/"+strconv.Itoa(i))...)
			}
		}
	}

	return undeclared
}

// members collects what an object schema declares, through allOf: its properties, the
// schema of additional members if it names one, and whether it accepts any member
// (additionalProperties: true, or a oneOf/anyOf this check does not try to resolve).
func members(schema *openapi3.Schema) (properties map[string]*openapi3.Schema, additional *openapi3.Schema, open bool) {
	properties = map[string]*openapi3.Schema{}

	var collect func(*openapi3.Schema)

	collect = func(s *openapi3.Schema) {
		for name, property := range s.Properties {
			if property.Value != nil {
				properties[name] = property.Value
			}
		}

		if s.AdditionalProperties.Schema != nil && s.AdditionalProperties.Schema.Value != nil {
			additional = s.AdditionalProperties.Schema.Value
		}

		if (s.AdditionalProperties.Has != nil && *s.AdditionalProperties.Has) || len(s.OneOf) > 0 || len(s.AnyOf) > 0 {
			open = true
		}

		for _, branch := range s.AllOf {
			if branch.Value != nil {
				collect(branch.Value)
			}
		}
	}

	collect(schema)

	return properties, additional, open
}

// itemsOf returns the item schema of an array schema, declared directly or through allOf.
func itemsOf(schema *openapi3.Schema) *openapi3.Schema {
	if schema.Items != nil && schema.Items.Value != nil {
		return schema.Items.Value
	}

	for _, branch := range schema.AllOf {
		if branch.Value != nil {
			if items := itemsOf(branch.Value); items != nil {
				return items
			}
		}
	}

	return nil
}
