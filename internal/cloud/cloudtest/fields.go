package cloudtest

import (
	"reflect"
	"testing"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// RequireAllSet fails unless every exported field under v is set: no empty string,
// zero number, false, nil pointer or empty list or map. A record built to exercise a
// conversion between the wire and a façade's own types checks itself with it, so that
// a field the wire gains, or the conversion drops, fails the test.
func RequireAllSet(t *testing.T, v any) {
	t.Helper()

	var walk func(value reflect.Value, at string)

	walk = func(value reflect.Value, at string) {
		if instant, ok := value.Interface().(time.Time); ok {
			if instant.IsZero() {
				t.Errorf("%s is not set", at)
			}

			return
		}

		switch value.Kind() {
		case reflect.Struct:
			for i := range value.NumField() {
				if field := value.Type().Field(i); field.IsExported() {
					walk(value.Field(i), at+"."+field.Name)
				}
			}
		case reflect.Pointer:
			if value.IsNil() {
				t.Errorf("%s is not set", at)

				return
			}

			walk(value.Elem(), at)
		case reflect.Slice, reflect.Map:
			if value.Len() == 0 {
				t.Errorf("%s is empty", at)
			}

			if value.Kind() == reflect.Slice {
				for i := range value.Len() {
					walk(value.Index(i), at+"[]")
				}
			}
		default:
			if value.IsZero() {
				t.Errorf("%s is not set", at)
			}
		}
	}

	walk(reflect.ValueOf(v), reflect.TypeOf(v).String())
}

// ProjectMetadata is project-scoped metadata with every field the façade reads set,
// of an object being deleted.
func ProjectMetadata() unikorn.ProjectScopedMetadata {
	deleted := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)

	var metadata unikorn.ProjectScopedMetadata
	metadata.ID, metadata.OrganizationID, metadata.ProjectID = "id", "organization", "project"
	metadata.Name, metadata.Description = "web", "the web tier"
	metadata.Tags = unikorn.Tags{{Name: "team", Value: "web"}}
	metadata.CreationTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	metadata.DeletionTime = &deleted
	metadata.ProvisioningStatus = unikorn.ProvisioningDeprovisioning

	return metadata
}
