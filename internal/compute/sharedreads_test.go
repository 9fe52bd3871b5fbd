package compute_test

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The routes of what the checks of an instance read besides the catalogue.
const (
	readSecurityGroup = "GET /api/v2/securitygroups/{securityGroupID}"
	readSSHCA         = "GET /api/v2/sshcertificateauthorities/{sshCertificateAuthorityID}"
	readNetwork       = "GET /api/v2/networks/{networkID}"
)

// realisticSpec refers to two security groups and an SSH certificate authority, as a
// real configuration's instances do.
func realisticSpec(name string) compute.Spec {
	spec := standardSpec(name)
	spec.SecurityGroupIDs = []string{sandbox.SecurityGroupAllowSSHID, sandbox.SecurityGroupAllowWebID}
	spec.SSHCertificateAuthorityID = sandbox.SSHCAID
	spec.UserData = "#cloud-config\n"
	spec.Tags = map[string]string{"role": "web"}

	return spec
}

// Terraform checks many instances at once (ten at a time, at plan, again at apply and
// at the create): what they all refer to is read once per process, not once per
// instance and check.
func TestChecksReadWhatInstancesShareOnce(t *testing.T) {
	t.Parallel()

	const instances = 20

	e := newEnv(t)
	e.Sandbox.ResetStats()

	var wg sync.WaitGroup

	for i := range instances {
		wg.Go(func() {
			spec := realisticSpec("web-" + string(rune('a'+i)))

			_, err := e.service.Validate(t.Context(), spec)
			assert.NoError(t, err)

			assert.NoError(t, e.service.ValidateUpdate(t.Context(), spec))
		})
	}

	wg.Wait()

	routes := e.Sandbox.Stats().Routes
	assert.Equal(t, 2, routes[readSecurityGroup], "one read of each of the two groups")
	assert.Equal(t, 1, routes[readSSHCA])
	assert.Equal(t, 1, routes[readNetwork])
}

// What this process writes through the networking family, the checks of instances read
// afresh: a group it has just created is known without a read, and one it has deleted
// is not found.
func TestChecksSeeWhatTheProcessWroteToNetworking(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	objects := networking.NewService(e.service.Session)

	group, err := objects.CreateSecurityGroup(t.Context(), networking.SecurityGroupCreate{
		SecurityGroupUpdate: networking.SecurityGroupUpdate{Metadata: cloud.WriteMetadata{Name: "web"}},
		NetworkID:           sandbox.NetworkDefaultID,
	})
	require.NoError(t, err)

	spec := standardSpec("web")
	spec.SecurityGroupIDs = []string{group.Metadata.ID}

	e.Sandbox.ResetStats()

	_, err = e.service.Validate(t.Context(), spec)
	require.NoError(t, err)
	assert.Zero(t, e.Sandbox.Stats().Routes[readSecurityGroup], "the create's last read is what the check needs")

	require.NoError(t, objects.DeleteSecurityGroup(t.Context(), group.Metadata.ID, time.Time{}))

	_, err = e.service.Validate(t.Context(), spec)

	var problems *compute.ValidationError
	require.ErrorAs(t, err, &problems)
	assert.Equal(t, compute.FieldSecurityGroupIDs, problems.Problems[0].Field)
}

// A group deleted behind the process's back can slip through a check once, from what
// the process read; region's refusal makes the next check ask again and name it.
func TestARefusedCreateForgetsTheSecurityGroups(t *testing.T) {
	t.Parallel()

	e := newEnv(t)

	group, err := e.Client.CreateSecurityGroup(t.Context(), unikorn.SecurityGroupCreate{
		Metadata: unikorn.WriteMetadata{Name: "short-lived"},
		Spec: unikorn.SecurityGroupCreateSpec{
			SecurityGroupSpec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{}},
			NetworkID:         sandbox.NetworkDefaultID,
		},
	})
	require.NoError(t, err)

	spec := standardSpec("web")
	spec.SecurityGroupIDs = []string{group.Metadata.ID}

	require.Eventually(t, func() bool {
		_, err := e.service.Validate(t.Context(), spec)

		return err == nil
	}, 5*time.Second, 5*time.Millisecond, "the group is read, and kept")

	require.NoError(t, e.Client.DeleteSecurityGroup(t.Context(), group.Metadata.ID))
	require.Eventually(t, func() bool {
		_, err := e.Client.GetSecurityGroup(t.Context(), group.Metadata.ID)

		return unikorn.IsNotFound(err)
	}, 5*time.Second, 5*time.Millisecond)

	_, err = e.service.Create(t.Context(), spec)
	require.ErrorContains(t, err, "creating the server", "the kept group let the create through to region")
	assert.Zero(t, e.instanceAllocations(), "and its charge was released")

	_, err = e.service.Create(t.Context(), spec)

	var problems *compute.ValidationError
	require.ErrorAs(t, err, &problems)
	assert.Equal(t, compute.FieldSecurityGroupIDs, problems.Problems[0].Field)
}

// The checks of an instance ask for its network, security groups and SSH certificate
// authority together: the first instance a command checks finds none of them read
// yet, and one after another they were a round trip each before its write.
func TestChecksReadWhatAnInstanceRefersToTogether(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	// The network, the two groups and the authority: each is held until all four are
	// asked for, or, asked one after another, until it gives up waiting.
	together := newGathering(4, readNetwork, readSecurityGroup, readSSHCA)

	require.NoError(t, e.serviceOver(t, together).ValidateUpdate(t.Context(), realisticSpec("web")))
	assert.False(t, together.waitedInVain(), "a read waited for the others, which were only asked for after it")

	routes := e.Sandbox.Stats().Routes
	assert.Equal(t, 2, routes[readSecurityGroup], "each group read once")
	assert.Equal(t, 1, routes[readSSHCA])
	assert.Equal(t, 1, routes[readNetwork])
}

// The check of a new instance's image, which follows its flavor's, asks for the
// region's images as it asks for its flavors.
func TestChecksReadTheFlavorsAndImagesTogether(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	together := newGathering(2,
		"GET /api/v1/organizations/{organizationID}/regions/{regionID}/flavors",
		"GET /api/v1/organizations/{organizationID}/regions/{regionID}/images")

	_, err := e.serviceOver(t, together).Validate(t.Context(), realisticSpec("web"))
	require.NoError(t, err)
	assert.False(t, together.waitedInVain(), "the flavors were read before the images were asked for")
}

// gathering is a transport that holds the requests of its routes until want of them
// have been sent, and lets each go on its own after a while.
type gathering struct {
	want   int
	routes []string

	mu     sync.Mutex
	sent   int
	all    chan struct{}
	inVain bool
}

func newGathering(want int, routes ...string) *gathering {
	return &gathering{want: want, routes: routes, all: make(chan struct{})}
}

func (g *gathering) RoundTrip(request *http.Request) (*http.Response, error) {
	if g.holds(request) {
		g.mu.Lock()
		g.sent++
		if g.sent == g.want {
			close(g.all)
		}
		g.mu.Unlock()

		select {
		case <-g.all:
		case <-time.After(time.Second):
			g.mu.Lock()
			g.inVain = true
			g.mu.Unlock()
		}
	}

	return http.DefaultTransport.RoundTrip(request)
}

// holds reports whether request is of one of the gathering's routes, such as
// "GET /api/v2/networks/{networkID}".
func (g *gathering) holds(request *http.Request) bool {
	for _, route := range g.routes {
		method, pattern, _ := strings.Cut(route, " ")
		path := regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(pattern, `[^/]+`) // a route holds no other metacharacter

		if request.Method == method && regexp.MustCompile("^"+path+"$").MatchString(request.URL.Path) {
			return true
		}
	}

	return false
}

func (g *gathering) waitedInVain() bool {
	g.mu.Lock()
	defer g.mu.Unlock()

	return g.inVain
}

// instanceBackend is one back end of the instances, and the route by which an
// update's first read finds the instance on it.
type instanceBackend struct {
	name      string
	instances func(e *env, t *testing.T, transport http.RoundTripper) compute.Instances
	read      string
}

var instanceBackends = []instanceBackend{
	{
		name: "region",
		instances: func(e *env, t *testing.T, transport http.RoundTripper) compute.Instances {
			t.Helper()

			return compute.NewRegionInstances(e.serviceOver(t, transport))
		},
		read: "GET /api/v2/servers",
	},
	{
		name: "compute",
		instances: func(e *env, t *testing.T, transport http.RoundTripper) compute.Instances {
			t.Helper()

			return e.computeOver(t, transport)
		},
		read: "GET " + sandbox.ComputePrefix + "/api/v2/instances",
	},
}

// An update reads its instance while it checks what the instance refers to: the
// first update of an apply, in a provider process that has read nothing, found
// neither read, and one after the other they were two round trips before its write.
func TestAnUpdateReadsItsInstanceWhileItChecksItsReferences(t *testing.T) {
	t.Parallel()

	for _, backend := range instanceBackends {
		t.Run(backend.name, func(t *testing.T) {
			t.Parallel()

			e := newEnv(t)
			spec := realisticSpec("web")

			created, err := backend.instances(e, t, nil).Create(t.Context(), spec)
			require.NoError(t, err)

			instance, err := backend.instances(e, t, nil).WaitReady(t.Context(), created)
			require.NoError(t, err)

			// The instance, the network, the two groups and the authority: each is held
			// until all five are asked for.
			together := newGathering(5, backend.read, readNetwork, readSecurityGroup, readSSHCA)

			spec.Tags = map[string]string{"role": "api"}

			updated, err := backend.instances(e, t, together).Update(t.Context(), instance.Ref(), spec)
			require.NoError(t, err)
			assert.Equal(t, "api", updated.Spec.Tags["role"])
			assert.False(t, together.waitedInVain(), "a read waited for the others, which were only asked for after it")
		})
	}
}

// An update whose checks fail writes nothing; one of an instance that is gone says
// that first, whatever its checks find.
func TestAnUpdateRefusedByItsChecksWritesNothing(t *testing.T) {
	t.Parallel()

	for _, backend := range instanceBackends {
		t.Run(backend.name, func(t *testing.T) {
			t.Parallel()

			e := newEnv(t)
			instances := backend.instances(e, t, nil)
			instance := readyOn(t, instances, "web")

			spec := standardSpec("web")
			spec.SecurityGroupIDs = []string{"f0000000-0000-4000-8000-00000000dead"}

			e.Sandbox.ResetStats()

			_, err := instances.Update(t.Context(), instance.Ref(), spec)

			var problems *compute.ValidationError
			require.ErrorAs(t, err, &problems)
			assert.Equal(t, compute.FieldSecurityGroupIDs, problems.Problems[0].Field)

			for route := range e.Sandbox.Stats().Routes {
				assert.True(t, strings.HasPrefix(route, http.MethodGet+" "), "%s was sent", route)
			}

			require.NoError(t, instances.Delete(t.Context(), instance, ""))

			_, err = instances.Update(t.Context(), instance.Ref(), spec)
			require.ErrorIs(t, err, compute.ErrNotFound)
		})
	}
}
