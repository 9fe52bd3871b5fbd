package compute

import "github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"

// The changes of an instance whose durations the session learns.
const (
	changeReady = "ready"
	changeGone  = "gone"
)

// change returns the change of kind to the instance: how long it takes depends on the
// flavor, whose size decides how long a machine takes.
func (i *Instance) change(kind string) cloud.Change {
	return cloud.Change{Kind: kind, Variant: i.Spec.FlavorID}
}
