package openapi

import "testing"

func TestEverySpecLoads(t *testing.T) {
	for _, name := range []string{Identity, Region, Compute} {
		if _, err := Load(name); err != nil {
			t.Error(err)
		}
	}
}
