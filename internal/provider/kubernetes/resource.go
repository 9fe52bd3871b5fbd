package kubernetes

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/kubernetes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/family"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/private"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/providerdata"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/validators"
)

var (
	_ resource.ResourceWithConfigure   = (*clusterResource)(nil)
	_ resource.ResourceWithImportState = (*clusterResource)(nil)
	_ resource.ResourceWithIdentity    = (*clusterResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*clusterResource)(nil)
)

var (
	pathProjectID    = path.Root("project_id")
	pathVersion      = path.Root("version")
	pathControlPlane = path.Root("control_plane")
	pathPools        = path.Root("workload_pools")
	pathProvisioning = path.Root("provisioning_status")
)

// A cluster takes tens of minutes: Nscale's NKS, on the same Cluster API machinery,
// took from six to 32 minutes to make one, and an update that rolls every machine of
// its pools, or a delete that drains them, takes longer.
const (
	defaultCreateTimeout = 60 * time.Minute
	defaultUpdateTimeout = 90 * time.Minute
	defaultDeleteTimeout = 60 * time.Minute
)

// NewResource returns the unikorn_kubernetes_cluster resource.
func NewResource() resource.Resource {
	return &clusterResource{family.Resource[kubernetes.Cluster, *resourceModel]{
		Base: family.Base{Type: family.Type{
			Name: TypeName, Noun: "Kubernetes cluster", Service: "the Kubernetes service", Scope: family.InOrganization,
			Timeout: defaultCreateTimeout, UpdateTimeout: defaultUpdateTimeout, DeleteTimeout: defaultDeleteTimeout,
			Diagnose: diagnostic.Kubernetes,
		}},
		Object: family.Object[kubernetes.Cluster, *resourceModel]{
			New: func() *resourceModel { return &resourceModel{} },
			Read: func(ctx context.Context, p *providerdata.Data, key family.Key) (*kubernetes.Cluster, error) {
				return p.Kubernetes.Read(ctx, key.OrganizationID, key.ID)
			},
			Remove: func(ctx context.Context, p *providerdata.Data, key family.Key, created time.Time) error {
				return p.Kubernetes.Delete(ctx, kubernetes.Ref{OrganizationID: key.OrganizationID, ProjectID: key.ProjectID, ID: key.ID}, created)
			},
			Set: func(ctx context.Context, m *resourceModel, c *kubernetes.Cluster, diags *diag.Diagnostics) {
				m.setKept(ctx, c, diags)
			},
			Lifecycle: func(c *kubernetes.Cluster) (time.Time, bool) {
				return c.Metadata.CreationTime, c.Metadata.Deleting
			},
		},
	}}
}

// clusterResource manages a cluster. Its organization, project, region and
// networking are fixed at create, so changing them replaces it; everything else,
// its workload pools above all, changes in place.
type clusterResource struct {
	family.Resource[kubernetes.Cluster, *resourceModel]
}

// resourceModel is the resource's state: what the service shows, and what it takes
// but never shows, which only the state keeps.
type resourceModel struct {
	clusterModel

	API        types.Object `tfsdk:"api"`
	Networking types.Object `tfsdk:"networking"`

	family.Timed
}

// Keys are the cluster's organization and ID: the service lists clusters by
// organization.
func (m *resourceModel) Keys() (types.String, types.String) { return m.OrganizationID, m.ID }

func (r *clusterResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	scope := []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()}
	count := func(least int64, description string) schema.Int64Attribute {
		return schema.Int64Attribute{Required: true, MarkdownDescription: description, Validators: []validator.Int64{int64validator.AtLeast(least)}}
	}
	prefix := func(description string) schema.StringAttribute {
		return schema.StringAttribute{
			Optional: true, MarkdownDescription: description,
			Validators: []validator.String{validators.IPv4Prefix("Invalid network prefix")},
		}
	}

	resp.Schema = schema.Schema{
		MarkdownDescription: descriptionCluster + " Name, description, tags, version, control plane, workload pools " +
			"(added, resized and removed by name), auto-upgrade, hardware enablement and API access change in place; " +
			"a change of organization, project, region or networking replaces the cluster. The " +
			"service answers before it has made anything, and a create waits until the cluster is provisioned (60 " +
			"minutes by default), an update until a read shows it and the cluster is provisioned again (90), a " +
			"delete until the service lists it no more (60). A create whose wait Terraform interrupts keeps the " +
			"cluster, and the next apply waits for it rather than making another. An import recovers everything " +
			"but `api` and `networking`, which the service never shows: see the import section.",
		Attributes: map[string]schema.Attribute{
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: descriptionID,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required: true, MarkdownDescription: descriptionName + " Changed in place.",
				Validators: []validator.String{validators.Name("Kubernetes cluster")},
			},
			"description": schema.StringAttribute{Optional: true, MarkdownDescription: descriptionDescription + " Changed in place."},
			"tags": schema.MapAttribute{
				Optional: true, ElementType: types.StringType, MarkdownDescription: descriptionTags + " Changed in place.",
				Validators: []validator.Map{validators.TagNames()},
			},
			"organization_id": schema.StringAttribute{
				Optional: true, Computed: true, PlanModifiers: scope,
				MarkdownDescription: descriptionOrganizationID + " Defaults to the provider's `organization_id`. Changing it replaces the cluster.",
				Validators:          []validator.String{validators.UUID()},
			},
			"project_id": schema.StringAttribute{
				Optional: true, Computed: true, PlanModifiers: scope,
				MarkdownDescription: descriptionProjectID + " Defaults to the provider's `project_id`. Changing it replaces the cluster.",
				Validators:          []validator.String{validators.UUID()},
			},
			"region_id": schema.StringAttribute{
				Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				MarkdownDescription: descriptionRegionID + " Changing it replaces the cluster.",
				Validators:          []validator.String{validators.UUID()},
			},
			"version": schema.StringAttribute{
				Required: true, MarkdownDescription: descriptionVersion + " Checked at plan against the region's images. " +
					"Changed in place: the service upgrades the machines, each pool's anew.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"cluster_manager_id": schema.StringAttribute{
				Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
				MarkdownDescription: descriptionManagerID,
			},
			"control_plane": schema.SingleNestedAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: descriptionControlPlane + " Left out, the service chooses three machines of the largest " +
					"flavor without GPUs of at most 8 CPUs and 16 GiB, and keeps them; this shows what it chose. Changed in place.",
				PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
				Attributes: map[string]schema.Attribute{
					"flavor_id": schema.StringAttribute{Required: true, MarkdownDescription: descriptionControlPlaneFlavor},
					// No Default: the framework sets a nested default even under a null
					// parent, which would plan a change in every run that leaves the
					// control plane out. The service defaults it to 3 itself.
					"replicas": schema.Int64Attribute{
						Optional: true, Computed: true,
						MarkdownDescription: descriptionControlPlaneReplicas + " Defaults to 3.",
						Validators:          []validator.Int64{int64validator.AtLeast(1)},
					},
				},
			},
			"workload_pools": schema.MapNestedAttribute{
				Required: true, MarkdownDescription: descriptionPools + " At least one. Each is added, changed and removed in place.",
				Validators: []validator.Map{mapvalidator.SizeAtLeast(1), mapvalidator.KeysAre(poolNames{"must be a DNS label"})},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"flavor_id":    schema.StringAttribute{Required: true, MarkdownDescription: descriptionPoolFlavor},
					"replicas":     count(0, descriptionPoolReplicas),
					"min_replicas": schema.Int64Attribute{Optional: true, MarkdownDescription: descriptionPoolMinReplicas, Validators: []validator.Int64{int64validator.AtLeast(0)}},
					"disk_size_gib": schema.Int64Attribute{
						Optional: true, MarkdownDescription: descriptionPoolDisk, Validators: []validator.Int64{int64validator.AtLeast(1)},
					},
					"labels": schema.MapAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: descriptionPoolLabels},
				}},
			},
			"auto_upgrade": schema.SingleNestedAttribute{
				Optional: true, MarkdownDescription: descriptionAutoUpgrade + " Changed in place.",
				Attributes: map[string]schema.Attribute{
					"enabled": schema.BoolAttribute{Required: true, MarkdownDescription: descriptionAutoUpgradeEnabled},
					"days_of_week": schema.MapNestedAttribute{
						Optional: true, MarkdownDescription: descriptionAutoUpgradeDays,
						Validators: []validator.Map{mapvalidator.KeysAre(stringvalidator.OneOf(kubernetes.Days...))},
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"start": schema.Int64Attribute{Required: true, MarkdownDescription: descriptionWindowStart, Validators: []validator.Int64{int64validator.Between(0, 23)}},
							"end":   schema.Int64Attribute{Required: true, MarkdownDescription: descriptionWindowEnd, Validators: []validator.Int64{int64validator.Between(0, 23)}},
						}},
					},
				},
			},
			"hardware_enablement": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: descriptionHardware + " Defaults to `false`. Changed in place.",
			},
			"api": schema.SingleNestedAttribute{
				Optional: true, MarkdownDescription: descriptionAPI + " Changed in place. The service never shows it, so " +
					"the state holds what was last sent, and a change made outside Terraform is not seen.",
				Attributes: map[string]schema.Attribute{
					"allowed_prefixes": schema.SetAttribute{
						Optional: true, ElementType: types.StringType, MarkdownDescription: descriptionAllowedPrefixes,
						Validators: []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(validators.IPv4Prefix("Invalid network prefix"))},
					},
					"subject_alternative_names": schema.SetAttribute{
						Optional: true, ElementType: types.StringType, MarkdownDescription: descriptionSANs,
						Validators: []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
					},
				},
			},
			"networking": schema.SingleNestedAttribute{
				Optional: true, MarkdownDescription: descriptionNetworking + " The service never shows it, so the state " +
					"holds what was sent at create.",
				PlanModifiers: []planmodifier.Object{networkingReplaces{
					"changing it replaces the cluster, except where an import could not know it",
				}},
				Attributes: map[string]schema.Attribute{
					"node_prefix":    prefix(descriptionNodePrefix),
					"service_prefix": prefix(descriptionServicePrefix),
					"pod_prefix":     prefix(descriptionPodPrefix),
				},
			},
			"application_bundle":  schema.StringAttribute{Computed: true, MarkdownDescription: descriptionBundle},
			"health_status":       schema.StringAttribute{Computed: true, MarkdownDescription: descriptionHealth},
			"provisioning_status": schema.StringAttribute{Computed: true, MarkdownDescription: descriptionProvisioning},
		},
	}
}

func (r *clusterResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan, config resourceModel

	r.Write(ctx, req.Plan, &plan, family.Created(resp), func(ctx context.Context, diags *diag.Diagnostics) (*kubernetes.Cluster, error) {
		diags.Append(req.Config.Get(ctx, &config)...)

		placement := kubernetes.Placement{
			OrganizationID: r.Organization(plan.OrganizationID, diags),
			ProjectID:      r.Provider.Project(plan.ProjectID, pathProjectID, diags),
			RegionID:       plan.RegionID.ValueString(),
			Networking:     plan.networking(ctx, diags),
		}
		want := plan.desired(ctx, &config, diags)

		if diags.HasError() {
			return nil, nil
		}

		cluster, err := r.Provider.Kubernetes.Create(ctx, placement, want)
		if cluster != nil {
			keep(ctx, resp.Private, keyNetworkingSent, true, diags)
		}

		return r.resumable(ctx, resp.Private, cluster, err, diags)
	})
}

func (r *clusterResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state, config resourceModel

	r.Write(ctx, req.Plan, &plan, family.Updated(resp), func(ctx context.Context, diags *diag.Diagnostics) (*kubernetes.Cluster, error) {
		diags.Append(req.State.Get(ctx, &state)...)
		diags.Append(req.Config.Get(ctx, &config)...)

		want := plan.desired(ctx, &config, diags)
		if diags.HasError() {
			return nil, nil
		}

		organizationID := state.OrganizationID.ValueString()

		if !changesCloud(ctx, &plan, &state, diags) {
			if unsettled(ctx, req.Private, diags) {
				cluster, err := r.Provider.Kubernetes.Wait(ctx, organizationID, state.ID.ValueString())

				return r.resumable(ctx, resp.Private, cluster, err, diags)
			}

			// A change the service would not see (timeouts) sends nothing.
			plan.keepReported(&state)
			diags.Append(resp.State.Set(ctx, &plan)...)

			return nil, nil
		}

		// What the plan could only warn of is refused here, before anything is sent.
		if r.refuse(ctx, &plan, &config, &state, diags); diags.HasError() {
			return nil, nil
		}

		ref := kubernetes.Ref{
			OrganizationID: organizationID, ProjectID: state.ProjectID.ValueString(), RegionID: state.RegionID.ValueString(),
			ID: state.ID.ValueString(), ClusterManagerID: state.ClusterManagerID.ValueString(),
		}
		cluster, err := r.Provider.Kubernetes.Update(ctx, ref, want)

		return r.resumable(ctx, resp.Private, cluster, err, diags)
	})
}

// resumable is what a create or an update returns of its wait: an interrupted wait is
// no failure (Terraform is stopping anyway), but a cluster still being made, which is
// saved, with a warning, and marked so that the next apply waits for it. Whatever the
// wait says, a cluster that exists is returned, to be saved.
func (r *clusterResource) resumable(ctx context.Context, w private.Writer, c *kubernetes.Cluster, err error,
	diags *diag.Diagnostics,
) (*kubernetes.Cluster, error) {
	var wait *cloud.WaitError

	switch {
	case c == nil:
	case err == nil:
		keep(ctx, w, keyUnsettled, false, diags)
	case errors.As(err, &wait) && wait.Interrupted():
		keep(ctx, w, keyUnsettled, true, diags)
		diags.AddWarning("Kubernetes cluster still being provisioned",
			"Terraform was interrupted while it waited for Kubernetes cluster "+c.Metadata.ID+" ("+c.Metadata.Name+
				"), which the service goes on making. It is kept in the state, and the next apply waits until it is "+
				"provisioned rather than making another.")

		return c, nil
	}

	return c, err
}

// keepReported takes what the service reports of the cluster, which the configuration
// does not set, from what it reported last.
func (m *resourceModel) keepReported(from *resourceModel) {
	m.ApplicationBundle, m.HealthStatus, m.ProvisioningStatus = from.ApplicationBundle, from.HealthStatus, from.ProvisioningStatus
	m.ControlPlane, m.ClusterManagerID = from.ControlPlane, from.ClusterManagerID
}

// changesCloud reports whether the plan asks the service for anything the state does
// not have. Networking is not asked for in place: a change of it replaces the cluster.
func changesCloud(ctx context.Context, plan, state *resourceModel, diags *diag.Diagnostics) bool {
	planned, prior := plan.desired(ctx, plan, diags), state.desired(ctx, state, diags)

	return !plan.Name.Equal(state.Name) || !plan.Description.Equal(state.Description) || !sameMap(plan.Tags, state.Tags) ||
		!plan.Version.Equal(state.Version) || !plan.HardwareEnablement.Equal(state.HardwareEnablement) ||
		(!plan.ControlPlane.IsUnknown() && !plan.ControlPlane.Equal(state.ControlPlane)) ||
		!plan.WorkloadPools.Equal(state.WorkloadPools) || !plan.AutoUpgrade.Equal(state.AutoUpgrade) ||
		!sameAPI(planned.API, prior.API)
}

// sameMap holds null and empty alike: the service keeps no difference.
func sameMap(a, b types.Map) bool {
	return len(a.Elements()) == 0 && len(b.Elements()) == 0 || a.Equal(b)
}

// sameAPI holds no API settings and empty ones alike: both are sent as none.
func sameAPI(a, b *kubernetes.API) bool {
	if a == nil {
		a = &kubernetes.API{}
	}

	if b == nil {
		b = &kubernetes.API{}
	}

	return slices.Equal(a.AllowedPrefixes, b.AllowedPrefixes) && slices.Equal(a.SubjectAlternativeNames, b.SubjectAlternativeNames)
}
