// Package identity holds the Terraform types of identity's objects: projects, groups,
// service accounts and users (resources), a service account's token (an ephemeral
// resource), and the roles, projects, groups, users, quotas and the organization a
// configuration looks up.
package identity

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

// uuids checks every member of a set of IDs at plan time.
func uuids() validator.Set {
	return setvalidator.ValueStringsAre(validators.UUID())
}

const (
	// projectTimeout bounds a project's create and delete: identity's controller
	// provisions a namespace, and a delete waits for every service to let go.
	projectTimeout = 20 * time.Minute
	// memberTimeout bounds the synchronous groups and service accounts, whose waits
	// only ride out the read lag.
	memberTimeout = 5 * time.Minute
)

var pathServiceAccountID = path.Root("service_account_id")

// newResource is the skeleton of identity's resources, objects of one kind in an
// organization: read and remove take the organization and the ID, record is what
// identity keeps of the object. Each resource adds its schema, create and update.
func newResource[T any, M family.Model](typeName, noun string, timeout time.Duration, newModel func() M,
	read func(identity.Objects, context.Context, string, string) (*T, error),
	remove func(identity.Objects, context.Context, string, string, time.Time) error,
	set func(context.Context, M, *T, *diag.Diagnostics),
	record func(*T) *identity.Record,
) family.Resource[T, M] {
	return family.Resource[T, M]{
		Base: family.Base{Type: family.Type{
			Name: typeName, Noun: noun, Service: "identity", Scope: family.InOrganization,
			Timeout: timeout, Diagnose: diagnostic.Identity,
		}},
		Object: family.Object[T, M]{
			New: newModel,
			Read: func(ctx context.Context, p *providerdata.Data, key family.Key) (*T, error) {
				return read(p.Identity, ctx, key.OrganizationID, key.ID)
			},
			Remove: func(ctx context.Context, p *providerdata.Data, key family.Key, created time.Time) error {
				return remove(p.Identity, ctx, key.OrganizationID, key.ID, created)
			},
			Set: set,
			Lifecycle: func(object *T) (time.Time, bool) {
				kept := record(object)

				return kept.CreationTime, kept.Deleting
			},
		},
	}
}

// create sends the create of what write makes of the plan, in the organization the
// plan or the provider names; nothing is sent when either cannot be made. An object
// that exists is saved even when its wait failed (see family.Resource.Write).
func create[T any, M family.Model, W any](ctx context.Context, r *family.Resource[T, M], req resource.CreateRequest,
	resp *resource.CreateResponse, plan M, write func(context.Context, *diag.Diagnostics) W,
	send func(identity.Objects, context.Context, string, W) (*T, error),
) {
	r.Write(ctx, req.Plan, plan, family.Created(resp), func(ctx context.Context, diags *diag.Diagnostics) (*T, error) {
		organization, _ := plan.Keys()
		organizationID := r.Organization(organization, diags)
		made := write(ctx, diags)

		if diags.HasError() {
			return nil, nil
		}

		return send(r.Provider.Identity, ctx, organizationID, made)
	})
}

// update sends an update of the object the plan keys, and saves only an update
// identity shows done: one that fails, or whose wait does, leaves the state as it was,
// so that the next plan asks for it again. send answers nil, with diagnostics, when it
// sends nothing.
func update[T any, M family.Model](ctx context.Context, r *family.Resource[T, M], req resource.UpdateRequest,
	resp *resource.UpdateResponse, plan M, send func(ctx context.Context, organizationID, id string, diags *diag.Diagnostics) (*T, error),
) {
	ctx, cancel, ok := r.Begin(ctx, req.Plan, plan, "update", &resp.Diagnostics)
	defer cancel()

	if !ok {
		return
	}

	organizationID, id := plan.Keys()

	object, err := send(ctx, organizationID.ValueString(), id.ValueString(), &resp.Diagnostics)
	if err != nil {
		resp.Diagnostics.Append(r.Failed("update", err)...)

		return
	}

	if object != nil {
		r.Save(ctx, plan, object, family.Updated(resp))
	}
}

// commonModel is what every identity object carries.
type commonModel struct {
	family.Metadata

	ID             types.String `tfsdk:"id"`
	OrganizationID types.String `tfsdk:"organization_id"`
}

// Keys are the object's organization and ID: identity's IDs are unique only within
// an organization.
func (m *commonModel) Keys() (types.String, types.String) { return m.OrganizationID, m.ID }

// setKept fills the model from identity's record and metadata (see family.Metadata.Set).
func (m *commonModel) setKept(ctx context.Context, record *identity.Record, metadata cloud.WriteMetadata, diags *diag.Diagnostics) {
	m.ID = types.StringValue(record.ID)
	m.OrganizationID = types.StringValue(record.OrganizationID)
	m.SetFrom(ctx, metadata, diags)
}

// groupsShown is what a member's group_ids shows of the groups it is in: those it
// names (the groups it joined itself), never those that list it from their side. A
// model not filled yet (fresh: an import's first read or a listed member) names every
// group the member is in: the configuration it is imported into says which to keep.
func groupsShown(ctx context.Context, shown types.Set, in []string, fresh bool, diags *diag.Diagnostics) types.Set {
	if fresh {
		shown = setOf(ctx, in, diags)
	}

	if named := identity.Named(in, stringsOf(ctx, shown, diags)); len(named) > 0 || !shown.IsNull() {
		return setOf(ctx, named, diags)
	}

	return shown
}

func setOf(ctx context.Context, ids []string, diags *diag.Diagnostics) types.Set {
	if ids == nil {
		ids = []string{}
	}

	value, d := types.SetValueFrom(ctx, types.StringType, ids)
	diags.Append(d...)

	return value
}

func stringsOf(ctx context.Context, set types.Set, diags *diag.Diagnostics) []string {
	ids := []string{}
	if set.IsNull() || set.IsUnknown() {
		return ids
	}

	diags.Append(set.ElementsAs(ctx, &ids, false)...)
	slices.Sort(ids)

	return ids
}

func timeoutsAttribute(ctx context.Context) schema.Attribute {
	return timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true})
}

// currently reads the object an update is about to change, for the memberships the
// update must keep (see identity.Joined); nil, with diagnostics, when it cannot be
// read or is gone.
func currently[T any](ctx context.Context, b *family.Base, read func(context.Context, string, string) (*T, error),
	organizationID, id string, diags *diag.Diagnostics,
) *T {
	object, err := read(ctx, organizationID, id)
	if err != nil {
		diags.Append(b.Failed("read", err)...)

		return nil
	}

	if object == nil {
		diags.Append(diagnostic.Error("Unable to update the "+b.Noun,
			fmt.Sprintf("%s%s %s no longer exists.", strings.ToUpper(b.Noun[:1]), b.Noun[1:], id),
			"Run `terraform apply` again to create it anew."))
	}

	return object
}
