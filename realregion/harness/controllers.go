package harness

import (
	"context"
	"fmt"

	coremanager "github.com/unikorn-cloud/core/pkg/manager"
	manageroptions "github.com/unikorn-cloud/core/pkg/manager/options"
	"github.com/unikorn-cloud/region/pkg/managers"
	identitymanager "github.com/unikorn-cloud/region/pkg/managers/identity"
	loadbalancermanager "github.com/unikorn-cloud/region/pkg/managers/load-balancer"
	networkmanager "github.com/unikorn-cloud/region/pkg/managers/network"
	securitygroupmanager "github.com/unikorn-cloud/region/pkg/managers/security-group"
	servermanager "github.com/unikorn-cloud/region/pkg/managers/server"
	"github.com/unikorn-cloud/region/pkg/providers"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/record"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// controller is one of region's controllers: its kind and its reconciler.
type controller struct {
	kind       string
	reconciler reconcile.Reconciler
}

// newControllers builds region's controllers as cmd/unikorn-*-controller would, each
// with its options parsed from the flags its binary takes, over one set of providers
// (providers.New, as ProvidersInit.Initialize calls it).
func newControllers(ctx context.Context, cli client.Client, scheme *runtime.Scheme, identityURL string) ([]controller, error) {
	providers, err := providers.New(ctx, cli, cli, Namespace, providers.Options{})
	if err != nil {
		return nil, fmt.Errorf("region's providers: %w", err)
	}

	identity := &identitymanager.Factory{}
	network := &networkmanager.Factory{}
	securityGroup := &securitygroupmanager.Factory{}
	loadBalancer := &loadbalancermanager.Factory{}
	server := &servermanager.Factory{}

	factories := []struct {
		kind    string
		factory coremanager.ControllerFactory
		init    *managers.ProvidersInit
	}{
		{"Identity", identity, &identity.ProvidersInit},
		{"Network", network, &network.ProvidersInit},
		{"SecurityGroup", securityGroup, &securityGroup.ProvidersInit},
		{"LoadBalancer", loadBalancer, &loadBalancer.ProvidersInit},
		{"Server", server, &server.ProvidersInit},
	}

	mgr := &stubManager{client: cli, scheme: scheme}

	controllers := make([]controller, 0, len(factories))

	for _, f := range factories {
		f.init.Providers = providers

		options := &manageroptions.Options{}
		if err := parse(options, identityURL); err != nil {
			return nil, err
		}

		// One worker per controller (queue.go).
		options.MaxConcurrentReconciles = 1

		controllerOptions := f.factory.Options()
		if controllerOptions != nil {
			if err := parse(controllerOptions, identityURL); err != nil {
				return nil, fmt.Errorf("%s controller's options: %w", f.kind, err)
			}
		}

		controllers = append(controllers, controller{kind: f.kind, reconciler: f.factory.Reconciler(options, controllerOptions, mgr)})
	}

	return controllers, nil
}

// stubManager is the manager.Manager handed to core's reconciler and region's
// provisioners, which ask it only for a client, the scheme and an event recorder
// (core pkg/manager/reconcile.go; region pkg/provisioners/managers/server). Any
// other method panics on the nil Manager it embeds, which would show at once.
type stubManager struct {
	manager.Manager

	client client.Client
	scheme *runtime.Scheme
}

func (m *stubManager) GetClient() client.Client { return m.client }

func (m *stubManager) GetScheme() *runtime.Scheme { return m.scheme }

// GetEventRecorderFor drops events: nothing reads them here.
func (m *stubManager) GetEventRecorderFor(string) record.EventRecorder {
	return &record.FakeRecorder{}
}
