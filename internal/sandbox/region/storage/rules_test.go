package storage

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func reservations(prefixLength int, provider ...int) *unikorn.NetworkReservations {
	r := &unikorn.NetworkReservations{PrefixLength: prefixLength}
	if len(provider) > 0 {
		r.ProviderReservedPrefixLength = &provider[0]
	}

	return r
}

func TestStorageRange(t *testing.T) {
	for name, tc := range map[string]struct {
		prefix       string
		reservations *unikorn.NetworkReservations
		start, end   string
	}{
		"region's default, /25 less a /28":      {"10.0.0.0/24", reservations(25, 28), "10.0.0.16", "10.0.0.127"},
		"no carve-out starts after the gateway": {"192.168.4.0/23", reservations(26), "192.168.4.2", "192.168.4.63"},
		"host bits of the prefix are ignored":   {"10.3.0.77/24", reservations(26, 28), "10.3.0.16", "10.3.0.63"},
		"the smallest reservation":              {"10.0.0.0/24", reservations(30), "10.0.0.2", "10.0.0.3"},
	} {
		t.Run(name, func(t *testing.T) {
			r, ok := StorageRange(tc.prefix, tc.reservations)
			require.True(t, ok)
			assert.Equal(t, tc.start, r.Start.String())
			assert.Equal(t, tc.end, r.End.String())
		})
	}

	for name, tc := range map[string]struct {
		prefix       string
		reservations *unikorn.NetworkReservations
	}{
		"the carve-out takes the whole reservation": {"10.0.0.0/24", reservations(26, 26)},
		"no reservations": {"10.0.0.0/24", nil},
		"not a prefix":    {"10.0.0.0", reservations(25)},
		"not IPv4":        {"fd00::/64", reservations(25)},
	} {
		t.Run(name, func(t *testing.T) {
			_, ok := StorageRange(tc.prefix, tc.reservations)
			assert.False(t, ok)
		})
	}
}

func TestNarrowAndMount(t *testing.T) {
	r, ok := StorageRange("10.0.0.0/24", reservations(25, 28))
	require.True(t, ok)

	four := r.Narrow(4)
	assert.Equal(t, "10.0.0.16-10.0.0.19", four.RemotePorts())
	assert.Equal(t, "10.0.0.16:/volumes/x", four.MountSource("/volumes/x"))

	assert.Equal(t, "10.0.0.16", r.Narrow(1).RemotePorts(), "one address is written alone")
	assert.Equal(t, "10.0.0.16-10.0.0.127", r.Narrow(1000).RemotePorts(), "a small range is used in full")
}

func TestDefaults(t *testing.T) {
	assert.True(t, RootSquash(unikorn.StorageType{}), "no NFS member means root squash")
	assert.False(t, RootSquash(unikorn.StorageType{NFS: &unikorn.NFSStorage{RootSquash: false}}))

	off := false
	assert.True(t, DefaultProtection(nil, true))
	assert.False(t, DefaultProtection(nil, false), "an update that omits it keeps it")
	assert.False(t, DefaultProtection(&off, true))

	current := []unikorn.StorageSnapshotPolicy{daily("nightly")}
	assert.Equal(t, current, ResolvePolicies(nil, current), "an omitted list keeps the policies")
	assert.Empty(t, ResolvePolicies(&[]unikorn.StorageSnapshotPolicy{}, current), "an empty list clears them")

	assert.Equal(t, int64(3)<<30, SizeBytes(3))
	require.Error(t, ValidateCreateSize(0))
	require.NoError(t, ValidateCreateSize(1))
}

func daily(name string) unikorn.StorageSnapshotPolicy {
	return unikorn.StorageSnapshotPolicy{
		Name:      name,
		Schedule:  unikorn.StorageSnapshotSchedule{Interval: unikorn.SnapshotDaily, TimeOfDay: "02:30Z"},
		Retention: unikorn.StorageRetention{Keep: 7},
	}
}

func TestPolicies(t *testing.T) {
	day := 3

	valid := []unikorn.StorageSnapshotPolicy{
		{Name: "hourly", Schedule: unikorn.StorageSnapshotSchedule{Interval: unikorn.SnapshotHourly}, Retention: unikorn.StorageRetention{Keep: 24}},
		daily("nightly"),
		{Name: "weekly", Schedule: unikorn.StorageSnapshotSchedule{Interval: unikorn.SnapshotWeekly, TimeOfDay: "00:00Z", DayOfWeek: "sunday"}, Retention: unikorn.StorageRetention{Keep: 4}},
		{Name: "monthly", Schedule: unikorn.StorageSnapshotSchedule{Interval: unikorn.SnapshotMonthly, TimeOfDay: "23:59Z", DayOfMonth: &day}, Retention: unikorn.StorageRetention{Keep: 12}},
	}
	require.NoError(t, ValidatePolicySchema(valid))
	require.NoError(t, ValidatePolicies(valid))

	for name, tc := range map[string]struct {
		mutate func(*unikorn.StorageSnapshotPolicy)
		schema bool
	}{
		"name too long":        {func(p *unikorn.StorageSnapshotPolicy) { p.Name = "a-name-of-twenty-chr" }, true},
		"name with capitals":   {func(p *unikorn.StorageSnapshotPolicy) { p.Name = "Nightly" }, true},
		"unknown interval":     {func(p *unikorn.StorageSnapshotPolicy) { p.Schedule.Interval = "yearly" }, true},
		"time without zone":    {func(p *unikorn.StorageSnapshotPolicy) { p.Schedule.TimeOfDay = "02:30" }, true},
		"day of month 29":      {func(p *unikorn.StorageSnapshotPolicy) { p.Schedule.DayOfMonth = new(int); *p.Schedule.DayOfMonth = 29 }, true},
		"keep nothing":         {func(p *unikorn.StorageSnapshotPolicy) { p.Retention.Keep = 0 }, true},
		"daily without a time": {func(p *unikorn.StorageSnapshotPolicy) { p.Schedule.TimeOfDay = "" }, false},
		"daily with a weekday": {func(p *unikorn.StorageSnapshotPolicy) { p.Schedule.DayOfWeek = "monday" }, false},
		"reserved name":        {func(p *unikorn.StorageSnapshotPolicy) { p.Name = SystemDefaultPolicy }, false},
	} {
		t.Run(name, func(t *testing.T) {
			policy := daily("nightly")
			tc.mutate(&policy)

			err := ValidatePolicySchema([]unikorn.StorageSnapshotPolicy{policy})
			if err == nil {
				err = ValidatePolicies([]unikorn.StorageSnapshotPolicy{policy})
			}

			var violation *Violation
			require.True(t, errors.As(err, &violation), "got %v", err)
			assert.Equal(t, tc.schema, violation.Schema, "%v", err)
		})
	}

	duplicate := ValidatePolicies([]unikorn.StorageSnapshotPolicy{daily("nightly"), daily("nightly")})
	require.EqualError(t, duplicate, "snapshot policy names must be unique")

	five := append(valid, daily("fifth"))
	require.Error(t, ValidatePolicySchema(five), "at most four policies")

	changed := daily("nightly")
	changed.Retention.Keep = 8
	assert.True(t, SamePolicy(daily("nightly"), daily("nightly")))
	assert.False(t, SamePolicy(daily("nightly"), changed))
}
