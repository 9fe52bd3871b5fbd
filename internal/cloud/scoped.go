package cloud

import (
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// ProjectMetadata is what every object a project owns carries beside its own spec, in
// the façade's terms: what it is called, whose it is, and where it is in its life.
type ProjectMetadata struct {
	WriteMetadata

	ID             string
	OrganizationID string
	ProjectID      string
	CreationTime   time.Time
	// ProvisioningStatus is how far the service has come making it as it is written.
	ProvisioningStatus string
	// DeletionTime is when region began to delete it, nil until then.
	DeletionTime *time.Time
	// Deleting says it is being deleted (see Deleting).
	Deleting bool
}

// ProjectMetadataOf is a service's project-scoped metadata in the façade's terms.
func ProjectMetadataOf(in *unikorn.ProjectScopedMetadata) ProjectMetadata {
	return ProjectMetadata{
		WriteMetadata:      WriteMetadataOf(in.WriteMetadata),
		ID:                 in.ID,
		OrganizationID:     in.OrganizationID,
		ProjectID:          in.ProjectID,
		CreationTime:       in.CreationTime,
		ProvisioningStatus: in.ProvisioningStatus,
		DeletionTime:       in.DeletionTime,
		Deleting:           Deleting(&in.ReadMetadata),
	}
}

// One is what a call answers with one object, in the façade's terms by from: none
// stays none, and an object answered with an error is kept, so that a caller keeps
// track of what exists whatever a wait said.
func One[W, D any](from func(*W) *D) func(*W, error) (*D, error) {
	return func(in *W, err error) (*D, error) {
		if in == nil {
			return nil, err
		}

		return from(in), err
	}
}

// All is what a call answers with a list, in the façade's terms by from.
func All[W, D any](from func(*W) *D) func([]W, error) ([]D, error) {
	return func(in []W, err error) ([]D, error) {
		if err != nil {
			return nil, err
		}

		out := make([]D, 0, len(in))
		for i := range in {
			out = append(out, *from(&in[i]))
		}

		return out, nil
	}
}
