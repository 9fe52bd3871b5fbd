package identity

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// filled is a T whose every field, however deep, holds a value that is not its zero,
// so that a conversion that drops one shows.
func filled[T any](t *testing.T) *T {
	t.Helper()

	v := new(T)
	fill(t, reflect.ValueOf(v).Elem(), "v")

	return v
}

func fill(t *testing.T, v reflect.Value, name string) {
	t.Helper()

	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)))

		return
	}

	switch v.Kind() {
	case reflect.String:
		v.SetString(name)
	case reflect.Int:
		v.SetInt(int64(len(name)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), name)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(t, v.Index(0), name+"[0]")
		fill(t, v.Index(1), name+"[1]")
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, v.Field(i), name+"."+v.Type().Field(i).Name)
		}
	default:
		t.Fatalf("%s: cannot fill a %s", name, v.Kind())
	}
}

// unset names the fields of v, however deep, that hold their zero value.
func unset(v reflect.Value, name string) []string {
	if v.Kind() == reflect.Struct && v.Type() != reflect.TypeFor[time.Time]() {
		var names []string
		for i := range v.NumField() {
			names = append(names, unset(v.Field(i), name+"."+v.Type().Field(i).Name)...)
		}

		return names
	}

	if v.IsZero() {
		return []string{name}
	}

	return nil
}

// shows is the object identity shows once sent is written: its metadata and spec as
// sent.
func shows[T any](sent any) *T {
	shown := new(T)
	into, from := reflect.ValueOf(shown).Elem(), reflect.ValueOf(sent)
	into.FieldByName("Spec").Set(from.FieldByName("Spec"))

	if metadata := from.FieldByName("Metadata"); metadata.Kind() == reflect.Struct {
		into.FieldByName("Metadata").FieldByName("WriteMetadata").Set(metadata)
	}

	return shown
}

// What the provider writes comes back whole from what identity then shows: no field
// of a write is lost on its way to the wire or back.
func TestAWriteComesBackWhole(t *testing.T) {
	t.Parallel()

	project, group, account, user := *filled[ProjectWrite](t), *filled[GroupWrite](t), *filled[ServiceAccountWrite](t), *filled[UserWrite](t)

	assert.Equal(t, project, projectFromWire(shows[unikorn.Project](project.wire())).ProjectWrite)
	assert.Equal(t, group, groupFromWire(shows[unikorn.Group](group.wire())).GroupWrite)
	assert.Equal(t, account, serviceAccountFromWire(shows[unikorn.ServiceAccount](account.wire())).ServiceAccountWrite)
	assert.Equal(t, user, userFromWire(shows[unikorn.User](user.wire())).UserWrite)

	assert.Empty(t, group.wire().Spec.Subjects, "a group's users go by ID, never by subject as well: identity refuses both")
	assert.Nil(t, user.wire().Metadata, "identity makes up a user's metadata")
}

// Every field of the façade's types is read from what identity answers.
func TestEveryFieldIsReadFromTheWire(t *testing.T) {
	t.Parallel()

	for name, read := range map[string]any{
		"project":         projectFromWire((filled[unikorn.Project](t))),
		"group":           groupFromWire((filled[unikorn.Group](t))),
		"service account": serviceAccountFromWire((filled[unikorn.ServiceAccount](t))),
		"user":            userFromWire((filled[unikorn.User](t))),
		"organization":    organizationFromWire((filled[unikorn.Organization](t))),
		"role":            roleFromWire((filled[unikorn.Role](t))),
		"quota":           quotaFromWire((filled[unikorn.Quota](t))),
	} {
		require.Empty(t, unset(reflect.ValueOf(read).Elem(), name), "left unset")
	}
}
