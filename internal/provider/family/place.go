package family

import "github.com/hashicorp/terraform-plugin-framework/types"

// Place is where an object of a project lives, in the attributes every such type
// shows (organization_id, project_id, region_id): embedded in its model, and in the
// configuration of its list resource, where each narrows the search.
type Place struct {
	OrganizationID types.String `tfsdk:"organization_id"`
	ProjectID      types.String `tfsdk:"project_id"`
	RegionID       types.String `tfsdk:"region_id"`
}

// PlaceOf is the place the cloud reports of an object.
func PlaceOf(organizationID, projectID, regionID string) Place {
	return Place{
		OrganizationID: types.StringValue(organizationID),
		ProjectID:      types.StringValue(projectID),
		RegionID:       types.StringValue(regionID),
	}
}

// Where is the place, for the skeleton's key of the object (see Key).
func (p *Place) Where() Place { return *p }
