package provider

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
)

// clearLogSettings unsets every log setting for the test, restoring them after it.
func clearLogSettings(t *testing.T) {
	t.Helper()

	for _, name := range LogSettings {
		t.Setenv(name, "")
		os.Unsetenv(name) //nolint:errcheck // restored by t.Setenv's cleanup
	}
}

func TestLogsAreOffUnlessAskedFor(t *testing.T) {
	clearLogSettings(t)

	QuietUnlessAsked()

	for _, name := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_UNIKORN"} {
		assert.Equal(t, "off", os.Getenv(name), name)
	}

	assert.Empty(t, os.Getenv("TF_LOG"), "Terraform's own setting is left alone")
}

func TestAnyLogSettingKeepsTheLogs(t *testing.T) {
	for _, asked := range LogSettings {
		t.Run(asked, func(t *testing.T) {
			clearLogSettings(t)
			t.Setenv(asked, "DEBUG")

			QuietUnlessAsked()

			for _, name := range LogSettings {
				if name != asked {
					assert.Empty(t, os.Getenv(name), "%s left unset when %s is set", name, asked)
				}
			}
		})
	}
}
