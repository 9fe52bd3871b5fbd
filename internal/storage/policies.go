package storage

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// Region's rules for snapshot policies, so that a configuration is judged by them at
// plan time rather than by a 400 or a 422 at apply.

// MaxPolicies is how many snapshot policies file storage may have.
const MaxPolicies = 4

// ReservedPolicyName is the hidden policy that default snapshot protection stands for.
const ReservedPolicyName = "system-default"

// maxPolicyName is the longest policy name region's storage back end takes.
const maxPolicyName = 19

var timeOfDayPattern = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]Z$`)

// Intervals and Weekdays are the values a schedule's interval and day of the week take.
var (
	Intervals = []string{Hourly, Daily, Weekly, Monthly}
	Weekdays  = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
)

// ValidatePolicyName checks the name of a snapshot policy, its identity.
func ValidatePolicyName(name string) error {
	switch {
	case name == ReservedPolicyName:
		return fmt.Errorf("%q is reserved for the policy that default snapshot protection stands for; "+
			"set default_snapshot_protection instead, or name the policy otherwise", ReservedPolicyName)
	case len(name) > maxPolicyName:
		return fmt.Errorf("%q is longer than %d characters, the most region's storage back end takes", name, maxPolicyName)
	case !cloud.IsLabel(name):
		return fmt.Errorf("%q is not a DNS label: lower-case letters, digits and hyphens, starting with a letter "+
			"and ending with a letter or a digit", name)
	}

	return nil
}

// ScheduleFieldError is a schedule field that its interval requires or forbids.
type ScheduleFieldError struct {
	// Field is "time_of_day", "day_of_week" or "day_of_month".
	Field   string
	Message string
}

func (e *ScheduleFieldError) Error() string { return e.Message }

// ValidateSchedule checks a schedule as region does: an hourly schedule takes no
// other field; daily, weekly and monthly take a time of day (HH:MMZ, in UTC), weekly
// a day of the week too and monthly a day of the month (1 to 28), and none takes the
// other's day. Each problem is a *ScheduleFieldError naming its field.
func ValidateSchedule(s SnapshotSchedule) []error {
	var problems []error

	field := func(name, format string, args ...any) {
		problems = append(problems, &ScheduleFieldError{Field: name, Message: fmt.Sprintf(format, args...)})
	}

	if !slices.Contains(Intervals, s.Interval) {
		return []error{fmt.Errorf("interval %q is not one of %v", s.Interval, Intervals)}
	}

	needsTime := s.Interval != Hourly

	switch {
	case needsTime && s.TimeOfDay == "":
		field("time_of_day", "a %s schedule needs a time of day", s.Interval)
	case !needsTime && s.TimeOfDay != "":
		field("time_of_day", "an hourly schedule takes no time of day")
	case s.TimeOfDay != "" && !timeOfDayPattern.MatchString(s.TimeOfDay):
		field("time_of_day", "%q is not a UTC time of day written HH:MMZ, e.g. 02:30Z", s.TimeOfDay)
	}

	switch {
	case s.Interval == Weekly && s.DayOfWeek == "":
		field("day_of_week", "a weekly schedule needs a day of the week")
	case s.Interval != Weekly && s.DayOfWeek != "":
		field("day_of_week", "only a weekly schedule takes a day of the week")
	case s.DayOfWeek != "" && !slices.Contains(Weekdays, s.DayOfWeek):
		field("day_of_week", "%q is not one of %v", s.DayOfWeek, Weekdays)
	}

	switch {
	case s.Interval == Monthly && s.DayOfMonth == nil:
		field("day_of_month", "a monthly schedule needs a day of the month")
	case s.Interval != Monthly && s.DayOfMonth != nil:
		field("day_of_month", "only a monthly schedule takes a day of the month")
	case s.DayOfMonth != nil && (*s.DayOfMonth < 1 || *s.DayOfMonth > 28):
		field("day_of_month", "%d is not a day that every month has (1 to 28)", *s.DayOfMonth)
	}

	return problems
}
