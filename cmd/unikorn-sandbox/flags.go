package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// quotaFlag is -quota: kind=quantity pairs, comma-separated, adding to earlier ones.
type quotaFlag map[string]int

var _ flag.Value = quotaFlag{}

func (q quotaFlag) String() string {
	pairs := make([]string, 0, len(q))
	for _, kind := range slices.Sorted(maps.Keys(q)) {
		pairs = append(pairs, kind+"="+strconv.Itoa(q[kind]))
	}

	return strings.Join(pairs, ",")
}

func (q quotaFlag) Set(value string) error {
	for pair := range strings.SplitSeq(value, ",") {
		kind, quantity, found := strings.Cut(strings.TrimSpace(pair), "=")

		n, err := strconv.Atoi(quantity)
		if !found || kind == "" || err != nil {
			return fmt.Errorf("%q is not kind=quantity, e.g. servers=2", pair)
		}

		q[kind] = n
	}

	return nil
}

// faultFlag is -fault: rules in the control API's JSON, one object or an array each.
type faultFlag []sandbox.FaultRule

var _ flag.Value = (*faultFlag)(nil)

func (f *faultFlag) String() string {
	if f == nil || len(*f) == 0 {
		return ""
	}

	data, _ := json.Marshal(*f)

	return string(data)
}

func (f *faultFlag) Set(value string) error {
	value = strings.TrimSpace(value)

	var rules []sandbox.FaultRule

	decoder := json.NewDecoder(bytes.NewBufferString(value))
	// A misspelt field would otherwise make a rule that matches more than meant.
	decoder.DisallowUnknownFields()

	var err error
	if strings.HasPrefix(value, "[") {
		err = decoder.Decode(&rules)
	} else {
		var rule sandbox.FaultRule

		err = decoder.Decode(&rule)
		rules = []sandbox.FaultRule{rule}
	}

	if err != nil {
		return fmt.Errorf("not a fault rule in JSON: %w", err)
	}

	*f = append(*f, rules...)

	return nil
}
