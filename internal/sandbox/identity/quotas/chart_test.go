package quotas_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	identityquotas "github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/quotas"
)

// The quota kinds are those identity v1.18.1's chart declares (its values.yaml is in
// ../testdata as the tag has it), with their names, words and defaults; floatingips,
// which compute charges, is the one the chart lacks.
func TestQuotaKindsAreTheChartsOfIdentityV1_18_1(t *testing.T) {
	raw, err := os.ReadFile("../testdata/values-v1.18.1.yaml")
	require.NoError(t, err)

	var chart struct {
		Quotas map[string]struct {
			DisplayName string `yaml:"displayName"`
			Description string `yaml:"description"`
			Default     string `yaml:"default"`
		} `yaml:"quotas"`
	}

	require.NoError(t, yaml.Unmarshal(raw, &chart))

	known := 0

	for _, kind := range identityquotas.Kinds {
		want, ok := chart.Quotas[kind.Name]
		if !ok {
			assert.Equal(t, "floatingips", kind.Name, "the chart declares no such kind")

			continue
		}

		known++

		assert.Equal(t, want.DisplayName, kind.DisplayName, kind.Name)
		assert.Equal(t, want.Description, kind.Description, kind.Name)
		assert.Equal(t, quantity(t, want.Default), kind.Default, kind.Name)
	}

	assert.Equal(t, len(chart.Quotas), known, "the chart declares kinds the sandbox lacks")
}

// quantity is a Kubernetes quantity as the chart writes its defaults: a number, or
// one with a binary suffix.
func quantity(t *testing.T, value string) int {
	t.Helper()

	multiplier := 1

	if number, ok := strings.CutSuffix(value, "Ti"); ok {
		value, multiplier = number, 1<<40
	}

	n, err := strconv.Atoi(value)
	require.NoError(t, err)

	return n * multiplier
}
