package identity

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
)

// A wait that runs out is bounded by the resource's timeouts, so the remedy names
// them and not request_timeout, which bounds one request.
func TestFailedWaitAdvisesTheResourcesTimeouts(t *testing.T) {
	err := fmt.Errorf("group: %w", &cloud.WaitError{What: "group g to show the update", Err: context.DeadlineExceeded})

	r, ok := NewGroupResource().(*groupResource)
	require.True(t, ok)

	diags := r.Failed("update", err)
	require.Len(t, diags, 1)
	d := diags[0]

	assert.Equal(t, "Unable to update the group", d.Summary())
	assert.Contains(t, d.Detail(), "Gave up waiting for group g to show the update")
	assert.Contains(t, d.Detail(), "the resource's `timeouts`")
	assert.NotContains(t, d.Detail(), "raise the provider's request_timeout")
}

func TestFailedInterruptedWaitSaysSo(t *testing.T) {
	err := &cloud.WaitError{What: "project p to be provisioned", Err: context.Canceled}

	r, ok := NewProjectResource().(*projectResource)
	require.True(t, ok)

	diags := r.Failed("create", err)
	require.Len(t, diags, 1)
	d := diags[0]

	assert.Contains(t, d.Detail(), "Terraform was interrupted")
	assert.NotContains(t, d.Detail(), "request_timeout")
}
