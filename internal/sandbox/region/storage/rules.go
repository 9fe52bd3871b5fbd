package storage

// The rules region v1.20.0 applies to file storage, as pure functions: what a create or
// an update may carry, the defaults region fills in, how an attached network's storage
// range is found and narrowed (ranges.go), and how an attachment's mount source and
// options are written. The handlers keep the records, the quota and the lifecycles, and
// call these.

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// GiB is what region multiplies sizeGiB by: sizes, capacities and the `filestorage`
// quota are kept in bytes.
const GiB = 1 << 30

// SizeBytes is the size region charges to the `filestorage` quota.
func SizeBytes(sizeGiB int64) int64 {
	return sizeGiB * GiB
}

// SystemDefaultPolicy is the name of the hidden policy that default snapshot
// protection stands for; no user's policy may take it.
const SystemDefaultPolicy = "system-default"

// MaxPolicies is how many snapshot policies a caller may set.
const MaxPolicies = 4

// DefaultParallelism is what region assumes of a class that names none.
const DefaultParallelism = 4

// Violation is a request region refuses. Schema violations are what region's OpenAPI
// validator refuses before any handler runs (400); the others break a rule the
// handler checks (422).
type Violation struct {
	Schema  bool
	Message string
}

func (v *Violation) Error() string { return v.Message }

func schema(format string, args ...any) error {
	return &Violation{Schema: true, Message: "request body has an error: doesn't match schema: " + fmt.Sprintf(format, args...)}
}

func unprocessable(format string, args ...any) error {
	return &Violation{Message: fmt.Sprintf(format, args...)}
}

// ValidateCreateSize is the create saga's first check. An update has none: region
// resizes to whatever it is sent.
func ValidateCreateSize(sizeGiB int64) error {
	if sizeGiB <= 0 {
		return unprocessable("size must be greater or equal to 1GiB")
	}

	return nil
}

// RootSquash is what region stores for a spec's storage type: the NFS setting when
// one is sent, and root squash on when the storage type names no NFS, on a create as
// on an update.
func RootSquash(storageType unikorn.StorageType) bool {
	if storageType.NFS == nil {
		return true
	}

	return storageType.NFS.RootSquash
}

// DefaultProtection resolves defaultSnapshotProtectionEnabled: a create that omits
// it gets protection, an update that omits it keeps what the storage has.
func DefaultProtection(requested *bool, current bool) bool {
	if requested == nil {
		return current
	}

	return *requested
}

// ResolvePolicies is what an update stores as the user's snapshot policies: an
// omitted list keeps the current ones, an empty list clears them, any other replaces
// them.
func ResolvePolicies(requested *[]unikorn.StorageSnapshotPolicy, current []unikorn.StorageSnapshotPolicy) []unikorn.StorageSnapshotPolicy {
	if requested == nil {
		return slices.Clone(current)
	}

	return slices.Clone(*requested)
}

var (
	// policyNamePattern is region `storageSnapshotPolicyV2Spec.name`.
	policyNamePattern = regexp.MustCompile(`^[a-z]([-a-z0-9]*[a-z0-9])?$`)
	// timeOfDayPattern is region `storageSnapshotScheduleV2Spec.timeOfDay`.
	timeOfDayPattern = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]Z$`)
)

// maxPolicyName is the longest policy name region's storage back end takes.
const maxPolicyName = 19

var (
	intervals = []string{unikorn.SnapshotHourly, unikorn.SnapshotDaily, unikorn.SnapshotWeekly, unikorn.SnapshotMonthly}
	weekdays  = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
)

// ValidatePolicies checks what only region's handler knows of snapshot policies
// (422): which schedule fields each interval takes, the reserved name and unique
// names. Its saga checks them after the region, the class and the attachments.
func ValidatePolicies(policies []unikorn.StorageSnapshotPolicy) error {
	seen := map[string]bool{}

	for _, policy := range policies {
		if err := validateScheduleShape(policy.Schedule); err != nil {
			return err
		}

		if policy.Name == SystemDefaultPolicy {
			return unprocessable("%q is a reserved snapshot policy name", SystemDefaultPolicy)
		}

		if seen[policy.Name] {
			return unprocessable("snapshot policy names must be unique")
		}

		seen[policy.Name] = true
	}

	return nil
}

// ValidatePolicySchema checks snapshot policies as region's document declares them,
// which its validator does before any handler runs (400).
func ValidatePolicySchema(policies []unikorn.StorageSnapshotPolicy) error {
	if len(policies) > MaxPolicies {
		return schema("Error at \"/spec/snapshotPolicies\": maximum number of items is %d", MaxPolicies)
	}

	for i, policy := range policies {
		at := fmt.Sprintf("/spec/snapshotPolicies/%d", i)

		switch {
		case len(policy.Name) > maxPolicyName:
			return schema("Error at %q: maximum string length is %d", at+"/name", maxPolicyName)
		case !policyNamePattern.MatchString(policy.Name):
			return schema("Error at %q: string doesn't match the regular expression %q", at+"/name", policyNamePattern.String())
		case !slices.Contains(intervals, policy.Schedule.Interval):
			return schema("Error at %q: value %q is not one of the allowed values", at+"/schedule/interval", policy.Schedule.Interval)
		case policy.Schedule.TimeOfDay != "" && !timeOfDayPattern.MatchString(policy.Schedule.TimeOfDay):
			return schema("Error at %q: string doesn't match the regular expression %q", at+"/schedule/timeOfDay", timeOfDayPattern.String())
		case policy.Schedule.DayOfWeek != "" && !slices.Contains(weekdays, policy.Schedule.DayOfWeek):
			return schema("Error at %q: value %q is not one of the allowed values", at+"/schedule/dayOfWeek", policy.Schedule.DayOfWeek)
		case policy.Schedule.DayOfMonth != nil && (*policy.Schedule.DayOfMonth < 1 || *policy.Schedule.DayOfMonth > 28):
			return schema("Error at %q: number must be between 1 and 28", at+"/schedule/dayOfMonth")
		case policy.Retention.Keep < 1:
			return schema("Error at %q: number must be at least 1", at+"/retention/keep")
		}
	}

	return nil
}

// validateScheduleShape checks which fields a schedule of each interval takes.
func validateScheduleShape(s unikorn.StorageSnapshotSchedule) error {
	hasTime, hasWeekday, hasMonthday := s.TimeOfDay != "", s.DayOfWeek != "", s.DayOfMonth != nil

	switch s.Interval {
	case unikorn.SnapshotHourly:
		if hasTime || hasWeekday || hasMonthday {
			return unprocessable("hourly snapshot policies must not define timeOfDay, dayOfWeek, or dayOfMonth")
		}
	case unikorn.SnapshotDaily:
		if !hasTime || hasWeekday || hasMonthday {
			return unprocessable("daily snapshot policies require timeOfDay and must not define dayOfWeek or dayOfMonth")
		}
	case unikorn.SnapshotWeekly:
		if !hasTime || !hasWeekday || hasMonthday {
			return unprocessable("weekly snapshot policies require timeOfDay and dayOfWeek and must not define dayOfMonth")
		}
	case unikorn.SnapshotMonthly:
		if !hasTime || !hasMonthday || hasWeekday {
			return unprocessable("monthly snapshot policies require timeOfDay and dayOfMonth and must not define dayOfWeek")
		}
	default:
		return unprocessable("snapshot policy interval is invalid")
	}

	return nil
}

// SamePolicy reports whether two policies ask for the same snapshots.
func SamePolicy(a, b unikorn.StorageSnapshotPolicy) bool {
	sameDay := (a.Schedule.DayOfMonth == nil) == (b.Schedule.DayOfMonth == nil) &&
		(a.Schedule.DayOfMonth == nil || *a.Schedule.DayOfMonth == *b.Schedule.DayOfMonth)

	return a.Name == b.Name && a.Retention == b.Retention && sameDay &&
		a.Schedule.Interval == b.Schedule.Interval && a.Schedule.TimeOfDay == b.Schedule.TimeOfDay &&
		a.Schedule.DayOfWeek == b.Schedule.DayOfWeek
}
