package cloud

import (
	"fmt"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Holder is something that keeps an object from being deleted: a server in a security
// group, file storage attached to a network.
type Holder struct {
	// Kind names the holder's kind in messages: "instance", "server", "file storage".
	Kind string
	Name string
	ID   string
	// Leaving means the holder is being deleted (its deletion time is set, or it is
	// deprovisioning), so the delete that waits for it will be taken once it is gone.
	Leaving bool
}

func (h Holder) String() string {
	return fmt.Sprintf("%s %q (%s)", h.Kind, h.Name, h.ID)
}

// HolderOf describes a holder from its metadata.
func HolderOf(kind string, metadata *unikorn.ReadMetadata) Holder {
	return Holder{
		Kind: kind, Name: metadata.Name, ID: metadata.ID,
		Leaving: metadata.DeletionTime != nil || metadata.ProvisioningStatus == unikorn.ProvisioningDeprovisioning,
	}
}

// HeldError means the cloud refuses to delete an object because something still
// holds it, and nothing that holds it is going away: waiting longer would change
// nothing. It is what a configuration that removes an object together with the
// references to it meets, when Terraform deletes the object before it updates what
// refers to it.
type HeldError struct {
	Kind string
	ID   string
	Name string
	// Holders are what the token can see holding the object; empty when it can see
	// none (they may be in projects it cannot read).
	Holders []Holder
	// Users says what may hold an object of the kind.
	Users string
	Err   error
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("%s %s is still in use by %s, and none of them is being deleted: %v", e.Kind, e.object(), e.HolderNames(), e.Err)
}

func (e *HeldError) Unwrap() error { return e.Err }

func (e *HeldError) object() string {
	if e.Name == "" {
		return e.ID
	}

	return fmt.Sprintf("%q (%s)", e.Name, e.ID)
}

// HolderNames names the holders, or says what may hold the object when none is seen.
func (e *HeldError) HolderNames() string {
	if len(e.Holders) == 0 {
		return e.Users + " (none that the token can see)"
	}

	names := make([]string, len(e.Holders))
	for i, holder := range e.Holders {
		names[i] = holder.String()
	}

	return strings.Join(names, ", ")
}
