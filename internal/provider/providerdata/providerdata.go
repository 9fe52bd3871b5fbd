// Package providerdata is what the configured provider hands to every resource, data
// source, ephemeral resource, action and list resource: one set of façades per provider
// instance and the provider-level defaults.
package providerdata

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/catalogue"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/identity"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/kubernetes"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/loadbalancing"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider/diagnostic"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/volumes"
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
	// Catalogue answers the look-ups of regions, flavors and images.
	Catalogue catalogue.Catalogue
	// Images manages the organization's images: those made from instances and those
	// imported from a URL.
	Images image.Images
	// Networking manages and finds networks, security groups and SSH certificate
	// authorities.
	Networking networking.Objects
	// Identity manages identity's projects, groups and service accounts, and reads
	// roles and quotas.
	Identity identity.Objects
	// LoadBalancers manages load balancers.
	LoadBalancers loadbalancing.LoadBalancers
	// Storage manages and finds file storage, and lists its classes.
	Storage storage.Objects
	// Volumes manages and finds block volumes, lists their classes and checks them.
	Volumes volumes.Objects
	// Kubernetes manages and finds Kubernetes clusters, reads their kubeconfig, and
	// lists the versions regions offer.
	Kubernetes kubernetes.Clusters
	// OrganizationID and ProjectID are the provider's defaults for types that need
	// one and were not given one; empty when the provider was not given them either.
	OrganizationID string
	ProjectID      string

	// Pending names the provider's settings whose values are not known yet: in a plan,
	// those that come from objects the same run makes (a project's ID, a service
	// account's token). Terraform knows them all by the time it applies.
	Pending []string
	// Offline means that a setting that reaching Unikorn needs is pending: the
	// façades are nil, and the types plan without the cloud (see Reachable).
	Offline bool

	// SealKey is the AES-256 key (token_seal_key) that seals the service account
	// tokens kept in state; nil when the provider was given none.
	SealKey []byte
	// Tokens are the service account tokens this provider instance received in this
	// run, for ephemeral resources to hand on where nothing sealed them.
	Tokens *Tokens
}

// The instance back ends InstanceAPI names.
const (
	// InstanceAPICompute is compute's public instance API, which every project member
	// may call.
	InstanceAPICompute = "compute"
	// InstanceAPIRegion is this provider's own saga over region's servers and
	// identity's allocations, service APIs that only service accounts and platform administrators may call.
	InstanceAPIRegion = "region"
)

// Connect gives the types their façades, every family's over the one session, so
// that all share its poll grid and what it learns of how long changes take; the
// instance back end is the one InstanceAPI names. A family adds its façade here.
func (d *Data) Connect(session *cloud.Session) {
	service := compute.NewService(session)
	networks := networking.NewService(session)
	images := image.NewService(session)
	blocks := volumes.NewService(session)

	d.Instances = compute.NewRegionInstances(service)
	if d.InstanceAPI == InstanceAPICompute {
		d.Instances = compute.NewComputeInstances(service)
		networks = networks.HeldByComputeInstances()
		images = images.HeldByComputeInstances()
		blocks = blocks.HeldByComputeInstances()
	}

	d.Catalogue = catalogue.NewService(session)
	d.Images = images
	d.Networking = networks
	d.LoadBalancers = loadbalancing.NewService(session)
	d.Storage = storage.NewService(session)
	d.Volumes = blocks
	d.Kubernetes = kubernetes.NewService(session)
	d.Identity = identity.NewService(session)
}

// Online reports whether the types can call Unikorn: the provider is configured and
// none of what reaching it needs is pending.
func (d *Data) Online() bool {
	return d != nil && !d.Offline
}

// Reachable reports whether operation, which must call Unikorn, can run now; when it
// cannot, it adds a diagnostic that says why and, as remedy, what to do.
func (d *Data) Reachable(operation string, remedy Remedy, diags *diag.Diagnostics) bool {
	if d.Online() {
		return true
	}

	problem := fmt.Sprintf("Unable to %s: it must call Unikorn, and the provider is not configured yet.", operation)
	if d != nil {
		problem = fmt.Sprintf("Unable to %s: it must call Unikorn, and the provider's %s.", operation, d.pendingList())
	}

	diags.Append(diagnostic.Error("Provider configuration not known yet", problem, string(remedy)))

	return false
}

// Refreshable is what a resource's Read asks first: when the provider cannot reach
// Unikorn yet, the object is left in state as it was, with a warning, since nothing
// about it is known to have changed. Terraform refreshes it in the next plan.
func (d *Data) Refreshable(noun, id string, diags *diag.Diagnostics) bool {
	if d.Online() {
		return true
	}

	diags.AddWarning("Not refreshed: provider configuration not known yet",
		fmt.Sprintf("The %s %s was not read from Unikorn, because the provider's %s; the plan uses what "+
			"the state recorded. The next plan, once they are known, refreshes it.",
			noun, id, d.pendingList()))

	return false
}

// pendingList says which settings are pending, and why, for a message: "`token` is
// not known until apply, as it comes from an object this run makes".
func (d *Data) pendingList() string {
	if d == nil || len(d.Pending) == 0 {
		return "configuration is not known"
	}

	quoted := make([]string, len(d.Pending))
	for i, name := range d.Pending {
		quoted[i] = "`" + name + "`"
	}

	if len(quoted) == 1 {
		return quoted[0] + " is not known until apply, as it comes from an object this run makes"
	}

	return strings.Join(quoted[:len(quoted)-1], ", ") + " and " + quoted[len(quoted)-1] +
		" are not known until apply, as they come from objects this run makes"
}

// Remedy says what to do about an operation that needs a configuration not known yet.
type Remedy string

// The remedies, by where the operation runs.
const (
	// RemedyDataSource is for data sources, which Terraform reads while it plans.
	RemedyDataSource Remedy = "Terraform reads a data source while it plans unless it depends on a change: add " +
		"`depends_on` naming the resource the provider's settings come from, so that it is read when that is applied, " +
		"or apply that resource first (terraform apply -target=...)."
	// RemedyImport is for imports, which read the object while Terraform plans.
	RemedyImport Remedy = "Import once the objects the provider's settings come from exist: apply them first " +
		"(terraform apply -target=...), then import."
	// RemedyQuery is for list resources: terraform query applies nothing.
	RemedyQuery Remedy = "terraform query applies nothing, so the settings must come from objects that exist " +
		"already: apply them first, or give the provider the values themselves."
	// RemedyApply is for what runs in an apply, where the configuration is always known.
	RemedyApply Remedy = "This is a bug in the provider or in the Terraform CLI, which should know every setting when it applies; please report it."
	// RemedyOpen is for ephemeral resources opened while Terraform plans.
	RemedyOpen Remedy = "Terraform opens ephemeral resources while it plans: apply the objects the provider's " +
		"settings come from first (terraform apply -target=...)."
)

// Tokens holds, in memory only, the service account tokens one provider instance
// received in this run, by service account ID. It is safe for concurrent use.
type Tokens struct {
	tokens sync.Map
}

// Token is a service account's access token and when it expires.
type Token struct {
	Token  string
	Expiry time.Time
}

// Hold keeps the token of the service account id for the rest of the run.
func (t *Tokens) Hold(id string, token Token) {
	if t != nil && token.Token != "" {
		t.tokens.Store(id, token)
	}
}

// Held returns the token this run received for the service account id.
func (t *Tokens) Held(id string) (Token, bool) {
	if t == nil {
		return Token{}, false
	}

	held, ok := t.tokens.Load(id)
	if !ok {
		return Token{}, false
	}

	token, ok := held.(Token)

	return token, ok
}

// Forget drops the token of a service account that is gone.
func (t *Tokens) Forget(id string) {
	if t != nil {
		t.tokens.Delete(id)
	}
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

	if slices.Contains(d.Pending, attribute) {
		diags.Append(diagnostic.AttributeError(p,
			"Provider "+attribute+" not known yet",
			fmt.Sprintf("No %s was given here, and the provider's %q, the default, is not known until apply, "+
				"because it comes from an object this run makes.", noun, attribute),
			fmt.Sprintf("Set %q here to what the provider's comes from (such as `unikorn_project.<name>.id`): "+
				"Terraform then waits for it, and reads or makes this when it applies.", attribute),
		))

		return ""
	}

	diags.Append(diagnostic.AttributeError(p,
		"Missing "+noun+" ID",
		fmt.Sprintf("No %s was given for this look-up and the provider has no default.", noun),
		fmt.Sprintf("Set %q here, or %q in the provider block, or the %s environment variable.", attribute, attribute, envVar),
	))

	return ""
}
