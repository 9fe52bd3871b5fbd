//go:build !linux

package private

import "time"

// sinceBoot knows no boot elsewhere than on Linux: what it would carry is then not
// kept, and a destroy settles a 404 by the cloud's creation time alone.
func sinceBoot() (boot string, up time.Duration, ok bool) {
	return "", 0, false
}
