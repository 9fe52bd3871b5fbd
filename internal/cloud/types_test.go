package cloud_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The settings reach the wire client whole, and its log lines come back at their level.
func TestSettingsReachTheClientWhole(t *testing.T) {
	t.Parallel()

	var logged []cloud.LogLevel

	settings := cloud.Settings{
		Endpoints: services.InSandbox("https://unikorn.example.com"), Token: "token", UserAgent: "agent",
		CACertificate: "PEM", Insecure: true, RequestTimeout: time.Minute, OmitBodies: true,
		Logger: func(_ context.Context, level cloud.LogLevel, _ string, _ map[string]any) {
			logged = append(logged, level)
		},
	}
	cloudtest.RequireAllSet(t, settings)

	config := cloud.SettingsWire(settings)
	require.NotNil(t, config.Logger)
	config.Logger(t.Context(), unikorn.LogDebug, "line", nil)
	config.Logger(t.Context(), unikorn.LogTrace, "body", nil)
	assert.Equal(t, []cloud.LogLevel{cloud.LogDebug, cloud.LogTrace}, logged)

	config.Logger = nil
	assert.Equal(t, unikorn.Config{
		Endpoints: settings.Endpoints, Token: "token", UserAgent: "agent", CACertificate: "PEM", Insecure: true,
		RequestTimeout: time.Minute, OmitBodies: true,
	}, config)

	settings.Logger = nil
	assert.Nil(t, cloud.SettingsWire(settings).Logger, "no logger logs nothing")
}

// Every class of the wire client's has one of the façade's, and a failure keeps every
// field.
func TestAFailureKeepsEveryField(t *testing.T) {
	t.Parallel()

	seen := map[cloud.Class]unikorn.Class{}

	for _, class := range cloud.WireClasses() {
		mine, ok := cloud.Classes[class]
		require.True(t, ok, "class %s has none of the façade's", class)

		other, taken := seen[mine]
		require.False(t, taken, "classes %s and %s are one", class, other)
		seen[mine] = class
	}

	assert.Len(t, cloud.Classes, len(cloud.WireClasses()))

	in := unikorn.Failure{
		Class: unikorn.ClassRBAC, Status: 403, Method: "POST", Path: "/api/v2/networks",
		Operation: "create", Endpoint: "region:networks:v2", Why: "not allowed", Quota: "networks",
	}
	cloudtest.RequireAllSet(t, in)
	cloudtest.RequireAllSet(t, cloud.FailureFromWire(in))
	assert.Equal(t, cloud.ClassRBAC, cloud.FailureFromWire(in).Class)
}

// Write metadata and tags convert both ways without losing a field.
func TestWriteMetadataKeepsEveryFieldBothWays(t *testing.T) {
	t.Parallel()

	in := unikorn.WriteMetadata{Name: "web", Description: "the web tier", Tags: unikorn.Tags{{Name: "team", Value: "web"}}}
	cloudtest.RequireAllSet(t, in)

	metadata := cloud.WriteMetadataOf(in)
	cloudtest.RequireAllSet(t, metadata)
	assert.Equal(t, in, metadata.Wire())
}
