// Package providerdata is what the configured provider hands to every resource, data
// source, ephemeral resource, action and list resource: one set of façades per provider
// instance and the provider-level defaults.
package providerdata

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
)

// Data is shared by everything one provider instance configures. It is a struct, not
// a bare client, so that later needs (caches, façades) can be added in one place.
type Data struct {
	// Instances is the instance back end the provider was configured with; Terraform
	// types see nothing else of it.
	Instances compute.Instances
	// InstanceAPI names that back end ("compute" or "region"): an instance is
	// managed by the back end that made it.
	InstanceAPI string
	// Catalogue answers the look-ups of regions, flavors and images. There is one per
	// provider instance, so that every instance in a run shares its catalogue cache.
	Catalogue compute.Catalogue
	// Images manages the images made from instances.
	Images compute.Images
	// Networking manages and finds networks, security groups and SSH certificate
	// authorities.
	Networking networking.Objects
	// LoadBalancers manages load balancers.
	LoadBalancers loadbalancing.LoadBalancers
	// Storage manages and finds file storage, and lists its classes.
	Storage storage.Objects
	// OrganizationID and ProjectID are the provider's defaults for types that need
	// one and were not given one; empty when the provider was not given them either.
	OrganizationID string
	ProjectID      string
}

// From returns the Data passed to a Configure method. Terraform also calls Configure
// before the provider is configured (when validating), so nil data is not an error:
// the caller gets nil and must not use it yet.
func From(providerData any, diags *diag.Diagnostics) *Data {
	if providerData == nil {
		return nil
	}

	data, ok := providerData.(*Data)
	if !ok {
		diags.Append(diagnostic.Error(
			"Unexpected provider data",
			fmt.Sprintf("Expected *providerdata.Data, got %T.", providerData),
			"This is a bug in the provider; please report it.",
		))

		return nil
	}

	return data
}

// Organization returns the ID of the organization a Terraform type works in: its own
// organization_id attribute (at p) when set, else the provider's. With neither, it
// adds one diagnostic that names both places and the environment variable.
func (d *Data) Organization(override types.String, p path.Path, diags *diag.Diagnostics) string {
	return d.scope(override, d.OrganizationID, "organization", p, "organization_id", "UNIKORN_ORGANIZATION_ID", diags)
}

// Project is Organization for the project.
func (d *Data) Project(override types.String, p path.Path, diags *diag.Diagnostics) string {
	return d.scope(override, d.ProjectID, "project", p, "project_id", "UNIKORN_PROJECT_ID", diags)
}

func (d *Data) scope(override types.String, fallback, noun string, p path.Path, attribute, envVar string, diags *diag.Diagnostics) string {
	if value := override.ValueString(); value != "" {
		return value
	}

	if fallback != "" {
		return fallback
	}

	diags.Append(diagnostic.AttributeError(p,
		"Missing "+noun+" ID",
		fmt.Sprintf("No %s was given for this look-up and the provider has no default.", noun),
		fmt.Sprintf("Set %q here, or %q in the provider block, or the %s environment variable.", attribute, attribute, envVar),
	))

	return ""
}
