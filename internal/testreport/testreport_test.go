package testreport_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/testreport"
)

// events is a pass of two packages: in one, a test with two parallel subtests that
// resumed after a pause, one of them failing; in the other, a passed and a skipped
// test.
const events = `{"Time":"2026-01-01T00:00:00Z","Action":"start","Package":"m/internal/a"}
{"Time":"2026-01-01T00:00:00Z","Action":"run","Package":"m/internal/a","Test":"TestSlow"}
{"Time":"2026-01-01T00:00:00Z","Action":"output","Package":"m/internal/a","Test":"TestSlow","Output":"=== RUN   TestSlow\n"}
{"Time":"2026-01-01T00:00:00Z","Action":"pause","Package":"m/internal/a","Test":"TestSlow"}
{"Time":"2026-01-01T00:00:10Z","Action":"cont","Package":"m/internal/a","Test":"TestSlow"}
{"Time":"2026-01-01T00:00:10Z","Action":"run","Package":"m/internal/a","Test":"TestSlow/one"}
{"Time":"2026-01-01T00:00:10Z","Action":"run","Package":"m/internal/a","Test":"TestSlow/two"}
{"Time":"2026-01-01T00:00:20Z","Action":"output","Package":"m/internal/a","Test":"TestSlow/one","Output":"    slow_test.go:9: it broke\n"}
{"Time":"2026-01-01T00:00:20Z","Action":"fail","Package":"m/internal/a","Test":"TestSlow/one","Elapsed":10}
{"Time":"2026-01-01T00:00:40Z","Action":"output","Package":"m/internal/a","Test":"TestSlow/two","Output":"    slow_test.go:12: fine\n"}
{"Time":"2026-01-01T00:00:40Z","Action":"pass","Package":"m/internal/a","Test":"TestSlow/two","Elapsed":30}
{"Time":"2026-01-01T00:00:40Z","Action":"fail","Package":"m/internal/a","Test":"TestSlow","Elapsed":0.01}
{"Time":"2026-01-01T00:00:40Z","Action":"output","Package":"m/internal/a","Output":"FAIL\tm/internal/a\t40.0s\n"}
{"Time":"2026-01-01T00:00:40Z","Action":"fail","Package":"m/internal/a","Elapsed":40}
{"Time":"2026-01-01T00:00:01Z","Action":"run","Package":"m/internal/b","Test":"TestQuick"}
{"Time":"2026-01-01T00:00:03Z","Action":"pass","Package":"m/internal/b","Test":"TestQuick","Elapsed":2}
{"Time":"2026-01-01T00:00:03Z","Action":"run","Package":"m/internal/b","Test":"TestNotHere"}
{"Time":"2026-01-01T00:00:03Z","Action":"skip","Package":"m/internal/b","Test":"TestNotHere","Elapsed":0}
{"Time":"2026-01-01T00:00:03Z","Action":"output","Package":"m/internal/b","Output":"ok  \tm/internal/b\t3.0s\n"}
{"Time":"2026-01-01T00:00:03Z","Action":"pass","Package":"m/internal/b","Elapsed":3}
`

func TestATableCountsAndRanksWhatTookTheTime(t *testing.T) {
	run, err := testreport.Read("terraform", strings.NewReader("go: downloading x\n"+events))
	require.NoError(t, err)

	top, all := run.Count()
	assert.Equal(t, testreport.Counts{Passed: 1, Failed: 1, Skipped: 1}, top)
	assert.Equal(t, testreport.Counts{Passed: 2, Failed: 2, Skipped: 1}, all)
	assert.Equal(t, 40*time.Second, run.Wall())

	var table bytes.Buffer
	run.Table(&table, 1, 10*time.Second)

	assert.Equal(t, `terraform: 40s wall; tests: 1 passed, 1 failed, 1 skipped (with subtests: 2 passed, 2 failed, 1 skipped)
  packages taking 10s or more (1 of 2):
        40.0s  fail  internal/a
  slowest tests:
        30.0s  fail  internal/a TestSlow
`, table.String(), "a parallel test counts from when it resumed; the quick package and test are left out")
}

func TestRenderPrintsWhatPlainGoTestWouldAndKeepsEveryEvent(t *testing.T) {
	var record, printed bytes.Buffer

	failed, err := testreport.Render(strings.NewReader(events), &record, &printed, "tf: ")
	require.NoError(t, err)

	assert.True(t, failed)
	assert.Equal(t, events, record.String(), "every event is kept as it came")
	assert.Equal(t, "tf:     slow_test.go:9: it broke\n"+
		"tf: FAIL\tm/internal/a\t40.0s\n"+
		"tf: ok  \tm/internal/b\t3.0s\n", printed.String(), "the failed tests' output and the packages' lines, nothing of what passed")
}
