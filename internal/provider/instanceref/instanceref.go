// Package instanceref is how the Terraform types that act on an existing compute
// instance (its SSH key, its console, its power and its snapshots) name it: by ID,
// optionally narrowed to an organization and project. The façade then finds the
// instance's server exactly as the instance resource does, by its tag.
package instanceref

import (
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	datasourceschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	ephemeralschema "github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// Model is the part of a configuration that names the instance; embed it.
type Model struct {
	InstanceID     types.String `tfsdk:"instance_id"`
	OrganizationID types.String `tfsdk:"organization_id"`
	ProjectID      types.String `tfsdk:"project_id"`
}

// Ref is the façade's reference to the named instance.
func (m *Model) Ref() compute.Ref {
	return compute.Ref{
		ID:             m.InstanceID.ValueString(),
		OrganizationID: m.OrganizationID.ValueString(),
		ProjectID:      m.ProjectID.ValueString(),
	}
}

// The scope is deliberately not defaulted to the provider's organization and project:
// an instance ID names one instance wherever it is, and a default would hide
// instances of other projects that the token may use.
const (
	instanceIDDescription     = "ID of the compute instance, e.g. `unikorn_compute_instance.web.id`."
	organizationIDDescription = "Organization of the instance. Optional: it only narrows the look-up, " +
		"which otherwise covers every organization the token is a member of."
	projectIDDescription = "Project of the instance. Optional: it only narrows the look-up, " +
		"which otherwise covers every project the token can read."
)

// The framework has one schema package per kind of Terraform type, so the same three
// attributes are spelled once for each kind that needs them.

// DataSourceAttributes are the Model's attributes in a data source.
func DataSourceAttributes() map[string]datasourceschema.Attribute {
	return map[string]datasourceschema.Attribute{
		"instance_id": datasourceschema.StringAttribute{
			Required: true, MarkdownDescription: instanceIDDescription, Validators: []validator.String{validators.UUID()},
		},
		"organization_id": datasourceschema.StringAttribute{
			Optional: true, MarkdownDescription: organizationIDDescription, Validators: []validator.String{validators.UUID()},
		},
		"project_id": datasourceschema.StringAttribute{
			Optional: true, MarkdownDescription: projectIDDescription, Validators: []validator.String{validators.UUID()},
		},
	}
}

// EphemeralAttributes are the Model's attributes in an ephemeral resource.
func EphemeralAttributes() map[string]ephemeralschema.Attribute {
	return map[string]ephemeralschema.Attribute{
		"instance_id": ephemeralschema.StringAttribute{
			Required: true, MarkdownDescription: instanceIDDescription, Validators: []validator.String{validators.UUID()},
		},
		"organization_id": ephemeralschema.StringAttribute{
			Optional: true, MarkdownDescription: organizationIDDescription, Validators: []validator.String{validators.UUID()},
		},
		"project_id": ephemeralschema.StringAttribute{
			Optional: true, MarkdownDescription: projectIDDescription, Validators: []validator.String{validators.UUID()},
		},
	}
}

// ActionAttributes are the Model's attributes in an action.
func ActionAttributes() map[string]actionschema.Attribute {
	return map[string]actionschema.Attribute{
		"instance_id": actionschema.StringAttribute{
			Required: true, MarkdownDescription: instanceIDDescription, Validators: []validator.String{validators.UUID()},
		},
		"organization_id": actionschema.StringAttribute{
			Optional: true, MarkdownDescription: organizationIDDescription, Validators: []validator.String{validators.UUID()},
		},
		"project_id": actionschema.StringAttribute{
			Optional: true, MarkdownDescription: projectIDDescription, Validators: []validator.String{validators.UUID()},
		},
	}
}
