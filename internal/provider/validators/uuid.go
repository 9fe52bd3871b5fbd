package validators

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// uuidPattern accepts the canonical lowercase UUIDs Unikorn uses for every ID.
var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// IsUUID reports whether s can be a Unikorn ID.
func IsUUID(s string) bool {
	return uuidPattern.MatchString(s)
}

// UUID rejects a value that cannot be a Unikorn ID before any API call.
func UUID() validator.String {
	return stringvalidator.RegexMatches(uuidPattern, "must be a lowercase UUID such as c0000000-0000-4000-8000-000000000001")
}
