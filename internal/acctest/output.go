package acctest

import (
	"regexp"
	"strings"
)

// Says is a pattern that finds each of phrases in turn in a CLI's output, whose lines
// the CLI wraps anywhere.
func Says(phrases ...string) *regexp.Regexp {
	quoted := make([]string, len(phrases))
	for i, phrase := range phrases {
		quoted[i] = strings.Join(strings.Fields(regexp.QuoteMeta(phrase)), `\s+`)
	}

	return regexp.MustCompile(`(?s)` + strings.Join(quoted, ".*"))
}

// Unwrapped is a CLI's output with its line wrapping undone, to look for what a
// diagnostic must not say.
func Unwrapped(output string) string {
	return strings.Join(strings.Fields(output), " ")
}
