package seams_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/kubernetes/cluster"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/services"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// world is what one group's configurations stand on: an environment, the provider
// block that reaches it, and the existing objects fixtures name.
type world struct {
	t   *testing.T
	env *acctest.Environment
	// admin is a client of the organization's administrator, who may delete
	// identity's objects.
	admin *unikorn.Client
	group group
	// provider is the provider block of the group's configurations.
	provider string

	region, org, project, network, flavor, image string
	storageClass, otherStorageClass              string
	volumeClass                                  string
	knownSecurityGroup, authorityKey             string
	readerRole, userRole, user, adminUser        string
	// knownGroup and knownServiceAccount are made before the configuration, so
	// that their IDs are known at plan; premade lists them, for the leak checks.
	knownGroup, knownServiceAccount string
	premade                         []string

	// given is what the fixtures' objects stand on (acctest.Block): the world's
	// existing objects, and the instance a snapshot is made of (sourceInstance).
	given acctest.Given
}

// forEachGroup runs test for every group, in parallel, each on a sandbox of its own;
// the instances' group once per back end.
func forEachGroup(t *testing.T, test func(t *testing.T, w *world)) {
	t.Helper()

	for _, g := range groups {
		t.Run(string(g), func(t *testing.T) {
			if g == groupInstances {
				// In parallel with the other groups, as every ForEachBackend test.
				acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
					// Each leg has a sandbox of its own: they run side by side.
					t.Parallel()
					test(t, newWorld(t, g, env))
				})

				return
			}

			t.Parallel()
			test(t, newWorld(t, g, acctest.New(t)))
		})
	}
}

func newWorld(t *testing.T, g group, env *acctest.Environment) *world {
	t.Helper()
	env.SkipUnlessSandbox(t)

	w := &world{
		t: t, env: env, admin: env.ClientAs(t, sandbox.AdminToken), group: g, provider: env.ProviderConfig(),
		region: env.RegionID, org: env.Settings.OrganizationID, project: env.Settings.ProjectID,
		network: env.NetworkID, flavor: env.FlavorID, image: env.ImageID,
		storageClass: sandbox.StorageClassStandardID, otherStorageClass: sandbox.StorageClassDedicatedID,
		volumeClass:        sandbox.VolumeClassStandardID,
		knownSecurityGroup: sandbox.SecurityGroupAllowSSHID, authorityKey: acctest.NewAuthorityKey(t),
		readerRole: sandbox.ReaderRoleID, userRole: sandbox.UserRoleID,
		user: sandbox.UserID, adminUser: sandbox.AdminUserID,
	}

	// Room for every network a group's configuration makes at once.
	makeRoom(t, env)

	if g == groupIdentity {
		// Only an administrator makes identity's objects.
		admin := env.Settings
		admin.Token = sandbox.AdminToken
		admin.InstanceAPI, admin.Endpoints[services.Compute] = "", ""
		w.provider = admin.Config()

		client := w.admin
		ctx := context.Background()

		known, err := client.CreateGroup(ctx, w.org, unikorn.GroupWrite{
			Metadata: unikorn.WriteMetadata{Name: "seam-known"},
			Spec:     unikorn.GroupSpec{RoleIDs: []string{w.readerRole}, ServiceAccountIDs: []string{}},
		})
		require.NoError(t, err)

		account, err := client.CreateServiceAccount(ctx, w.org, unikorn.ServiceAccountWrite{
			Metadata: unikorn.WriteMetadata{Name: "seam-known"},
			Spec:     unikorn.ServiceAccountSpec{GroupIDs: []string{known.Metadata.ID}},
		})
		require.NoError(t, err)

		w.knownGroup, w.knownServiceAccount = known.Metadata.ID, account.Metadata.ID
		w.premade = []string{w.knownGroup, w.knownServiceAccount}
	}

	w.given = acctest.Given{
		Region: quote(w.region), StorageClass: quote(w.storageClass), Network: quote(w.network),
		Flavor: quote(w.flavor), Image: quote(w.image), VolumeClass: quote(w.volumeClass),
		Instance:     "unikorn_compute_instance.seam_source.id",
		AuthorityKey: w.authorityKey, Role: quote(w.readerRole), Prefix: acctest.Prefixes(),
	}

	if g == groupRegion {
		// A project user's token: the Kubernetes service asks every caller for the
		// exact permission, which the compute service's account does not hold, and
		// region's objects are the user's to make alike.
		w.provider = env.ProjectUserSettings().Config()

		w.given.KubernetesVersion = quote(env.KubernetesVersion(t))
	}
	if w.knownGroup != "" {
		w.given.Group = quote(w.knownGroup)
	}

	return w
}

// makeRoom deletes the fixture networks the suite does not use (and the security
// group that holds one), so that the organization's quota of five networks, three of
// which the fixtures hold, leaves room for the four a group's configuration makes at
// once. No token of the sandbox's may raise a quota.
func makeRoom(t *testing.T, env *acctest.Environment) {
	t.Helper()

	ctx := context.Background()

	require.NoError(t, env.Client.DeleteSecurityGroup(ctx, sandbox.SecurityGroupSecondarySSHID))
	require.Eventually(t, func() bool {
		_, err := env.Client.GetSecurityGroup(ctx, sandbox.SecurityGroupSecondarySSHID)

		return unikorn.IsNotFound(err)
	}, 30*time.Second, 20*time.Millisecond)

	for _, id := range []string{sandbox.NetworkSecondaryID, sandbox.NetworkOtherID} {
		require.NoError(t, env.Client.DeleteNetwork(ctx, id))
	}

	require.Eventually(t, func() bool {
		quotas, err := env.Client.GetQuotas(ctx, env.Settings.OrganizationID)
		require.NoError(t, err)

		for _, quota := range quotas.Quotas {
			if quota.Kind == "networks" {
				return quota.Free >= 4
			}
		}

		return false
	}, 30*time.Second, 20*time.Millisecond, "the quota of networks frees up")
}

// reaches reports whether the world's configurations give the reference a value: not
// on an instance path that refuses it.
func (w *world) reaches(r referenceFixture) bool {
	return r.instanceAPI == "" || r.instanceAPI == w.env.Settings.InstanceAPI
}

// newVolume makes a volume on the world's network, through the wire client, and waits
// until it is provisioned: an existing object whose ID is known at plan, one for each
// holder, as a volume is attached to one instance at a time. It and its quota charge
// are premade.
func (w *world) newVolume() string {
	t := w.t
	t.Helper()

	ctx := context.Background()

	volume, err := w.env.Client.CreateVolume(ctx, unikorn.VolumeCreate{
		Metadata: unikorn.WriteMetadata{Name: fmt.Sprintf("seam-known-%d", len(w.premade))},
		Spec:     unikorn.VolumeSpec{NetworkID: w.network, VolumeClassID: w.volumeClass, SizeGiB: 1},
	})
	require.NoError(t, err)

	id := volume.Metadata.ID
	require.Eventually(t, func() bool {
		volume, err := w.env.Client.GetVolume(ctx, id)

		return err == nil && volume.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned
	}, 30*time.Second, 20*time.Millisecond, "the known volume is provisioned")

	w.premade = append(w.premade, id)

	for _, allocation := range w.env.Allocations(t) {
		if allocation.Spec.ID == id {
			w.premade = append(w.premade, allocation.Metadata.ID)
		}
	}

	return id
}

// fixtureSupport is what the fixtures of the world's group need beside them (a
// network to stand on, an instance to snapshot), as supports writes it.
func (w *world) fixtureSupport() []string {
	var support []string

	for _, typeName := range w.typesOf() {
		if f := fixtures[typeName]; f.support != nil {
			support = append(support, f.support(w))
		}
	}

	return support
}

// typesOf are the table's types of the world's group, sorted.
func (w *world) typesOf() []string {
	var names []string

	for name, f := range fixtures {
		if f.group == w.group {
			names = append(names, name)
		}
	}

	slices.Sort(names)

	return names
}

// cli starts a CLI in a directory of its own on config (without the provider block).
func (w *world) cli(t *testing.T, config string) *acctest.CLI {
	t.Helper()

	cli := acctest.NewCLI(t, t.TempDir())
	cli.WriteConfig(w.provider + config)
	cli.Run("init", "-input=false")

	return cli
}

func (w *world) write(cli *acctest.CLI, config string) {
	cli.WriteConfig(w.provider + config)
}

// supports joins support blocks, each once.
func supports(blocks ...string) string {
	var seen []string

	for _, b := range blocks {
		if b != "" && !slices.Contains(seen, b) {
			seen = append(seen, b)
		}
	}

	return strings.Join(seen, "\n")
}

// plannedChange is one resource's change in a saved plan.
type plannedChange struct {
	Address string `json:"address"`
	Change  struct {
		Actions []string `json:"actions"`
	} `json:"change"`
}

// plan saves a plan with args and returns its resource changes by address, or the
// output of the plan that failed.
func plan(t *testing.T, cli *acctest.CLI, args ...string) (map[string][]string, string, error) {
	t.Helper()

	output, err := cli.Try(append([]string{"plan", "-input=false", "-out=tfplan"}, args...)...)
	if err != nil {
		return nil, output, err
	}

	return planChanges(t, cli.Run("show", "-json", "tfplan")), output, nil
}

// planChanges reads the resource changes of a plan `show -json` printed, by address.
func planChanges(t *testing.T, shown string) map[string][]string {
	t.Helper()

	var document struct {
		ResourceChanges []plannedChange `json:"resource_changes"`
	}

	require.NoError(t, json.Unmarshal([]byte(jsonLine(shown)), &document), "the plan as JSON:\n%s", shown)

	changes := map[string][]string{}
	for _, change := range document.ResourceChanges {
		changes[change.Address] = change.Change.Actions
	}

	return changes
}

// jsonLine is the JSON document in what `show -json` printed (OpenTofu may print
// warnings about its CLI configuration before it).
func jsonLine(output string) string {
	for line := range strings.Lines(output) {
		if strings.HasPrefix(line, "{") {
			return line
		}
	}

	return output
}

// stateResource is a resource of the state as `show -json` prints it.
type stateResource struct {
	Address string         `json:"address"`
	Type    string         `json:"type"`
	Values  map[string]any `json:"values"`
}

// state returns the state's resources by address.
func state(t *testing.T, cli *acctest.CLI) map[string]stateResource {
	t.Helper()

	shown := cli.Run("show", "-json")

	var document struct {
		Values struct {
			RootModule struct {
				Resources []stateResource `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}

	require.NoError(t, json.Unmarshal([]byte(jsonLine(shown)), &document), "the state as JSON:\n%s", shown)

	resources := map[string]stateResource{}
	for _, r := range document.Values.RootModule.Resources {
		resources[r.Address] = r
	}

	return resources
}

// exitCode is the exit status err carries, 0 for none and -1 for a command that did
// not run.
func exitCode(err error) int {
	var exit *exec.ExitError

	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	default:
		return -1
	}
}

// leftBehind are the objects the sandbox holds that users made, fixtures and the
// world's premade objects left out, and what the services make and keep on their own
// (a project's cluster manager, which the Kubernetes service keeps while the project
// lives).
func (w *world) leftBehind(t *testing.T) []string {
	t.Helper()

	var left []string

	for _, object := range w.env.LeftBehind(t) {
		if !slices.Contains(w.premade, object.ID) && object.Kind != cluster.ObjectManager {
			left = append(left, object.Kind+" "+object.ID+" "+object.Name)
		}
	}

	return left
}

// requireNothingLost checks that every object the state holds is in the sandbox's
// records, as they are: a provider that lost track of one would show it here.
func (w *world) requireNothingLost(t *testing.T, cli *acctest.CLI) {
	t.Helper()

	held := map[string]bool{}
	for _, object := range w.env.LeftBehind(t) {
		held[object.ID] = true
	}

	for address, r := range state(t, cli) {
		if !strings.HasPrefix(r.Type, "unikorn_") {
			continue
		}

		id, _ := r.Values["id"].(string)
		if !held[id] {
			t.Errorf("%s (%s) is in state but not in the sandbox's records", address, id)
		}
	}
}

// requireNothingLeaked checks that nothing the test made is left in the sandbox,
// quota allocations included.
func (w *world) requireNothingLeaked(t *testing.T) {
	t.Helper()

	if left := w.leftBehind(t); len(left) > 0 {
		t.Errorf("left behind in the sandbox:\n  %s", strings.Join(left, "\n  "))
	}
}

// diagnostics splits what a command printed into its errors, each the text from its
// "Error: " line to the next diagnostic.
func diagnostics(output string) []string {
	return splitDiagnostics(output, false)
}

// splitDiagnostics splits output into its errors and, with warnings, its warnings.
func splitDiagnostics(output string, warnings bool) []string {
	var (
		found   []string
		current *strings.Builder
	)

	for line := range strings.Lines(output) {
		trimmed := strings.TrimLeft(line, "│╷╵ ")
		isError, isWarning := strings.HasPrefix(trimmed, "Error: "), strings.HasPrefix(trimmed, "Warning: ")

		if isError || isWarning {
			if current != nil {
				found = append(found, current.String())
			}

			current = nil
			if isError || warnings {
				current = &strings.Builder{}
			}
		}

		if current != nil {
			current.WriteString(trimmed)
		}
	}

	if current != nil {
		found = append(found, current.String())
	}

	return found
}

// diagnosticAbout is the first error that concerns address: one that names it
// (quoted, on its "with" line, or in the text, such as "value for ADDR.attribute"),
// or "".
func diagnosticAbout(output, address string) string {
	return about(diagnostics(output), address)
}

// warningAbout is the first warning that concerns address, as diagnosticAbout finds
// an error, or "".
func warningAbout(output, address string) string {
	var warnings []string

	for _, d := range splitDiagnostics(output, true) {
		if strings.HasPrefix(d, "Warning: ") {
			warnings = append(warnings, d)
		}
	}

	return about(warnings, address)
}

// about is the first of the diagnostics that names address, or "".
func about(diagnostics []string, address string) string {
	named := regexp.MustCompile(`(^|[^\w.])` + regexp.QuoteMeta(address) + `(\W|$)`)

	for _, d := range diagnostics {
		if named.MatchString(oneLine(d)) {
			return d
		}
	}

	return ""
}

// oneLine squeezes the whitespace of a CLI's wrapped text, for matching.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// errorsOf is what a failed command said: its errors, or all of it when it printed
// none the suite recognizes.
func errorsOf(output string) string {
	if found := diagnostics(output); len(found) > 0 {
		return strings.Join(found, "\n")
	}

	return output
}
