package storage_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func network(prefix string, reservationLength int, provider ...int) *unikorn.Network {
	n := &unikorn.Network{Status: unikorn.NetworkStatus{Prefix: prefix}}
	if reservationLength > 0 {
		n.Status.Reservations = &unikorn.NetworkReservations{PrefixLength: reservationLength}
		if len(provider) > 0 {
			n.Status.Reservations.ProviderReservedPrefixLength = &provider[0]
		}
	}

	return n
}

func TestStorageRange(t *testing.T) {
	t.Parallel()

	for name, tc := range map[string]struct {
		network     *unikorn.Network
		first, last string
	}{
		"region's default":             {network("10.0.0.0/24", 25, 28), "10.0.0.16", "10.0.0.127"},
		"no reservations read as such": {network("10.0.0.0/24", 0), "10.0.0.16", "10.0.0.127"},
		"no carve-out":                 {network("10.9.0.0/23", 26), "10.9.0.2", "10.9.0.63"},
	} {
		r, ok := storage.StorageRange(tc.network)
		require.True(t, ok, name)
		assert.Equal(t, tc.first, r.First.String(), name)
		assert.Equal(t, tc.last, r.Last.String(), name)
	}

	_, ok := storage.StorageRange(network("10.0.0.0/24", 26, 26))
	assert.False(t, ok, "a carve-out of the whole reservation leaves no storage range")
}

func TestPolicyRules(t *testing.T) {
	t.Parallel()

	require.NoError(t, storage.ValidatePolicyName("nightly-2"))
	require.Error(t, storage.ValidatePolicyName(storage.ReservedPolicyName))
	require.Error(t, storage.ValidatePolicyName("twenty-characters-x"+"y"))
	require.Error(t, storage.ValidatePolicyName("Nightly"))

	day, late := 1, 29

	fields := func(s storage.SnapshotSchedule) []string {
		var names []string

		for _, err := range storage.ValidateSchedule(s) {
			var field *storage.ScheduleFieldError
			if errors.As(err, &field) {
				names = append(names, field.Field)
			} else {
				names = append(names, "interval")
			}
		}

		return names
	}

	assert.Empty(t, fields(storage.SnapshotSchedule{Interval: storage.Hourly}))
	assert.Empty(t, fields(storage.SnapshotSchedule{Interval: storage.Monthly, TimeOfDay: "23:59Z", DayOfMonth: &day}))
	assert.Equal(t, []string{"time_of_day"}, fields(storage.SnapshotSchedule{Interval: storage.Hourly, TimeOfDay: "01:00Z"}))
	assert.Equal(t, []string{"time_of_day", "day_of_week"}, fields(storage.SnapshotSchedule{Interval: storage.Weekly}))
	assert.Equal(t, []string{"time_of_day"}, fields(storage.SnapshotSchedule{Interval: storage.Daily, TimeOfDay: "24:00Z"}))
	assert.Equal(t, []string{"day_of_month"}, fields(storage.SnapshotSchedule{Interval: storage.Monthly, TimeOfDay: "01:00Z", DayOfMonth: &late}))
	assert.Equal(t, []string{"day_of_week"}, fields(storage.SnapshotSchedule{Interval: storage.Daily, TimeOfDay: "01:00Z", DayOfWeek: "monday"}))
	assert.Equal(t, []string{"interval"}, fields(storage.SnapshotSchedule{Interval: "yearly"}))
}
