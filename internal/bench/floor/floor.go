// Package floor is the least a provider with this provider's schemas can cost: a
// provider built from the same framework, serving every resource type of the real
// provider with the very schema (validators, plan modifiers and identity included),
// whose plan and read do nothing and whose create makes up what the cloud would
// report. `make bench` walks a thousand of its instances beside a thousand of the real
// provider's, so that what Terraform, the plugin protocol and the framework cost with
// these schemas is told apart from what the provider itself costs.
//
// Paced (see Pacing), each create, update and delete also lasts what a phase's bound
// counts for it, and each read a round trip, without a request: what Terraform and the
// framework add to a bound when the provider only waits as long as the cloud makes it.
package floor

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	unikorn "github.com/unikorn-cloud/terraform-provider-unikorn/internal/provider"
)

var (
	_ provider.Provider                = (*floorProvider)(nil)
	_ resource.Resource                = (*floorResource)(nil)
	_ resource.ResourceWithIdentity    = (*floorResource)(nil)
	_ resource.ResourceWithImportState = (*floorResource)(nil)
)

// New returns the constructor of the floor provider, which answers to the real one's
// name so that the benchmark's configurations serve both unchanged; its changes last
// as pacing says.
func New(version string, pacing Pacing) func() provider.Provider {
	return func() provider.Provider { return &floorProvider{version: version, pacing: pacing} }
}

// Pacing is how long the changes of each resource type last, by its type name; a type
// or change it does not name does not wait.
type Pacing map[string]Pace

// Pace is how long each change of one resource type lasts, and each read of it: a
// refresh reads every object, in the order of the configuration's dependencies, and
// the cloud answers each read no sooner than a round trip.
type Pace struct {
	Create, Update, Delete, Read time.Duration
}

// PacingVariable is the environment variable the benchmark paces the floor provider
// with; Terraform starts the provider, so it cannot be told any other way.
const PacingVariable = "UNIKORN_FLOOR_PACING"

// writtenPace is a Pace as the environment carries it: Go durations, such as 2.05s.
type writtenPace struct {
	Create string `json:"create"`
	Update string `json:"update"`
	Delete string `json:"delete"`
	Read   string `json:"read,omitempty"`
}

// Environ is pacing as the environment variable that PacingFromEnvironment reads.
func (p Pacing) Environ() []string {
	written := make(map[string]writtenPace, len(p))
	for typeName, pace := range p {
		written[typeName] = writtenPace{pace.Create.String(), pace.Update.String(), pace.Delete.String(), pace.Read.String()}
	}

	encoded, err := json.Marshal(written)
	if err != nil {
		panic(err) // a map of strings always encodes
	}

	return []string{PacingVariable + "=" + string(encoded)}
}

// PacingFromEnvironment reads the pacing that Environ wrote; unset, nothing waits.
func PacingFromEnvironment() (Pacing, error) {
	value := os.Getenv(PacingVariable)
	if value == "" {
		return Pacing{}, nil
	}

	var written map[string]writtenPace
	if err := json.Unmarshal([]byte(value), &written); err != nil {
		return nil, fmt.Errorf("%s must be a JSON object of resource types' paces, such as "+
			`{"unikorn_network":{"create":"2.075s","update":"0s","delete":"550ms"}}: %w`, PacingVariable, err)
	}

	pacing := make(Pacing, len(written))

	for typeName, w := range written {
		var pace Pace

		for _, change := range []struct {
			name, value string
			into        *time.Duration
		}{{"create", w.Create, &pace.Create}, {"update", w.Update, &pace.Update}, {"delete", w.Delete, &pace.Delete}, {"read", w.Read, &pace.Read}} {
			if change.value == "" {
				continue
			}

			duration, err := time.ParseDuration(change.value)
			if err != nil || duration < 0 {
				return nil, fmt.Errorf("%s: the %s of %s must be a duration of at least 0, such as 2.05s; it is %q",
					PacingVariable, change.name, typeName, change.value)
			}

			*change.into = duration
		}

		pacing[typeName] = pace
	}

	return pacing, nil
}

// madeUpAddresses counts the addresses made up, so that each is new within one
// Terraform command (every command starts the provider anew): the benchmark's phases
// create all their instances in one.
var madeUpAddresses atomic.Uint32

// madeUpString is a made-up value of the string attribute at at.
func madeUpString(at *tftypes.AttributePath) string {
	steps := at.Steps()
	name := ""

	if len(steps) > 0 {
		if attribute, ok := steps[len(steps)-1].(tftypes.AttributeName); ok {
			name = string(attribute)
		}
	}

	switch {
	case name == "id" || strings.HasSuffix(name, "_id"):
		return uuid.NewString()
	case strings.HasSuffix(name, "_ip") || strings.HasSuffix(name, "_ip_address"):
		n := madeUpAddresses.Add(1)

		return netip.AddrFrom4([4]byte{10, byte(n >> 16), byte(n >> 8), byte(n)}).String()
	default:
		return "floor"
	}
}

// last waits d, or until ctx ends.
func last(ctx context.Context, d time.Duration) {
	timer := time.NewTimer(d)
	defer timer.Stop()

	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}

type floorProvider struct {
	version string
	pacing  Pacing
}

func (p *floorProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = unikorn.TypeName
	resp.Version = p.version
}

func (p *floorProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{MarkdownDescription: "The benchmark's floor: the provider's resource schemas, and nothing behind them."}
}

func (p *floorProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

// Resources are the real provider's, each behind a floorResource paced as its type.
func (p *floorProvider) Resources(ctx context.Context) []func() resource.Resource {
	served := unikorn.New(p.version)().Resources(ctx)
	resources := make([]func() resource.Resource, 0, len(served))

	for _, newReal := range served {
		pace := p.pacing[typeName(ctx, newReal())]
		resources = append(resources, func() resource.Resource { return &floorResource{real: newReal(), pace: pace} })
	}

	return resources
}

// typeName is the name r answers to in this provider.
func typeName(ctx context.Context, r resource.Resource) string {
	var metadata resource.MetadataResponse
	r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: unikorn.TypeName}, &metadata)

	return metadata.TypeName
}

func (p *floorProvider) DataSources(context.Context) []func() datasource.DataSource {
	return nil
}

// floorResource takes its name and schemas from a real resource, and nothing else:
// it has no ModifyPlan, Read leaves the state as it was, and its changes only last as
// its type's pace says.
type floorResource struct {
	real resource.Resource
	pace Pace
}

func (r *floorResource) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	r.real.Metadata(ctx, req, resp)
}

func (r *floorResource) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.real.Schema(ctx, req, resp)
}

func (r *floorResource) IdentitySchema(ctx context.Context, req resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	if withIdentity, ok := r.real.(resource.ResourceWithIdentity); ok {
		withIdentity.IdentitySchema(ctx, req, resp)
	}
}

// Create keeps the plan, with what only the cloud would know made up.
func (r *floorResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	last(ctx, r.pace.Create)

	if settle(req.Plan.Raw, tftypes.NewValue(req.Plan.Raw.Type(), nil), &resp.State, &resp.Diagnostics) && resp.Identity != nil {
		identify(ctx, resp.State.Raw, resp.Identity, &resp.Diagnostics)
	}
}

func (r *floorResource) Read(ctx context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {
	last(ctx, r.pace.Read)
}

func (r *floorResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	last(ctx, r.pace.Update)

	settle(req.Plan.Raw, req.State.Raw, &resp.State, &resp.Diagnostics)
}

// settle sets state to plan with what only the cloud would know made up (see madeUp),
// and reports whether it could.
func settle(plan, prior tftypes.Value, state *tfsdk.State, diags *diag.Diagnostics) bool {
	known, err := madeUp(plan, prior)
	if err != nil {
		diags.AddError("Unable to make up the resource", err.Error())

		return false
	}

	state.Raw = known

	return true
}

func (r *floorResource) Delete(ctx context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
	last(ctx, r.pace.Delete)
}

func (r *floorResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// identify sets the identity of a created resource from its state: every attribute of
// the identity schema is the state's attribute of the same name, as the real
// resources' identities are.
func identify(ctx context.Context, state tftypes.Value, into *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	identityType := into.Schema.Type().TerraformType(ctx)

	objectType, ok := identityType.(tftypes.Object)
	if !ok {
		diags.AddError("Unable to make up the identity", fmt.Sprintf("the identity schema is a %s, not an object", identityType))

		return
	}

	attributes := make(map[string]tftypes.Value, len(objectType.AttributeTypes))

	for name := range objectType.AttributeTypes {
		value, _, err := tftypes.WalkAttributePath(state, tftypes.NewAttributePath().WithAttributeName(name))

		stateValue, isValue := value.(tftypes.Value)
		if err != nil || !isValue {
			// A null part would pass unnoticed (the framework refuses only a wholly null
			// identity), and the floor would then serve an identity the real one does not.
			diags.AddError("Unable to make up the identity", fmt.Sprintf("the state has no attribute %q of the identity", name))

			return
		}

		attributes[name] = stateValue
	}

	into.Raw = tftypes.NewValue(identityType, attributes)
}

// madeUp is value with every unknown part replaced by a known one of its type: what a
// cloud would have reported once the resource existed. What prior, the state before
// an update, holds at the same place is kept, as a cloud reports an updated instance
// at the address it had; the rest is made up. A string is made up as what other
// resources take it for, by its name: an ID a UUID, an IP address an IPv4 address of
// its own (a load balancer's members are its instances' addresses), anything else a
// word.
func madeUp(value, prior tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(value, func(at *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}

		if before, _, err := tftypes.WalkAttributePath(prior, at); err == nil {
			if before, ok := before.(tftypes.Value); ok && before.IsFullyKnown() && !before.IsNull() {
				return before, nil
			}
		}

		switch {
		case v.Type().Is(tftypes.String):
			return tftypes.NewValue(tftypes.String, madeUpString(at)), nil
		case v.Type().Is(tftypes.Bool):
			return tftypes.NewValue(tftypes.Bool, false), nil
		case v.Type().Is(tftypes.Number):
			return tftypes.NewValue(tftypes.Number, 0), nil
		default:
			// A collection or object only the cloud would fill: none, as far as it knows.
			return tftypes.NewValue(v.Type(), nil), nil
		}
	})
}
