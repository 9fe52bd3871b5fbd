// Package harness runs region v1.20.0 in one process: its stock HTTP server
// (server.GetServer, OpenAPI request and response validation on), its own
// reconcilers for identities, networks, security groups, load balancers and
// servers, and its `simulated` cloud provider, over controller-runtime's fake client
// in place of a Kubernetes API server. Identity is whatever serves IdentityURL (the
// provider's sandbox, in make test-real-region).
//
// Region's code runs as it is, reached only through what it exports for this:
//
//   - server.Server.GetServer takes any controller-runtime client (region's own
//     contract verifier, test/contracts/provider/compute, builds its server on a
//     client of its choosing the same way);
//   - each controller's Factory (pkg/managers/...) builds its reconciler from a
//     manager.Manager and exports ProvidersInit.Providers, which its Initialize
//     would fill from a kubeconfig: the harness fills it with providers.New over the
//     fake client, and hands Reconciler a manager that offers the three things core's
//     reconciler asks of one (controllers.go);
//   - the options every binary parses from its command line are parsed here from the
//     same flags.
//
// What a Kubernetes API server and controller manager would do around them is done
// here, each piece in a file of its own: object metadata, generations and watch
// events (client.go), the garbage collector's cascading deletion (gc.go), and the
// controllers' work queues (queue.go).
package harness

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/spf13/pflag"

	coreclient "github.com/unikorn-cloud/core/pkg/client"
	coreconstants "github.com/unikorn-cloud/core/pkg/constants"
	regionv1 "github.com/unikorn-cloud/region/pkg/apis/unikorn/v1alpha1"
	"github.com/unikorn-cloud/region/pkg/server"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// Namespace is where region keeps its objects, as its chart's release namespace.
const Namespace = "unikorn-region"

// clientCertificateName is the Secret holding region's client certificate, whose RSA
// key signs the X-Principal header its controllers send identity (core's
// HTTPClientOptions.EncodeAndSign). Over plain HTTP it authenticates nothing.
const clientCertificateName = "unikorn-region-client-certificate"

// Region is a Region object: simulated, and private to Organizations when any are
// named, as region's own CI fixtures (hack/ci/fixtures) make them.
type Region struct {
	ID, Name      string
	Organizations []string
}

// Options configure a Harness.
type Options struct {
	// IdentityURL is identity's base URL, e.g. http://127.0.0.1:8080.
	IdentityURL string
	// Listen is the API's address; empty means a free port on 127.0.0.1.
	Listen string
	// Regions are the regions region serves.
	Regions []Region
	// Log receives region's server and controller logs; nil discards them.
	Log io.Writer
}

// Harness is region running in this process.
type Harness struct {
	// URL is region's base URL.
	URL string
	// Client is the fake client region reads and writes, for inspection.
	Client client.Client

	server  *http.Server
	cancel  context.CancelFunc
	workers sync.WaitGroup
}

// Start runs region until ctx ends or Close is called.
func Start(ctx context.Context, opts Options) (*Harness, error) {
	if opts.IdentityURL == "" {
		return nil, errors.New("the identity URL is required")
	}

	if opts.Log == nil {
		opts.Log = io.Discard
	}

	ctrllog.SetLogger(logger(opts.Log))

	ctx, cancel := context.WithCancel(ctx)
	ctx = ctrllog.IntoContext(ctx, logger(opts.Log))

	h := &Harness{cancel: cancel}

	if err := h.start(ctx, opts); err != nil {
		h.Close()

		return nil, err
	}

	return h, nil
}

func (h *Harness) start(ctx context.Context, opts Options) error {
	scheme, err := coreclient.NewScheme(regionv1.AddToScheme)
	if err != nil {
		return err
	}

	queues := newQueues()

	cli, err := newClient(scheme, queues)
	if err != nil {
		return err
	}

	h.Client = cli

	if err := seed(ctx, cli, opts.Regions); err != nil {
		return fmt.Errorf("seeding region's objects: %w", err)
	}

	listener, err := listen(opts.Listen)
	if err != nil {
		return err
	}

	h.URL = "http://" + listener.Addr().String()

	// Region's server, as cmd/unikorn-region-controller builds it, from its flags.
	var s server.Server

	// Region's listener closes a connection idle for its read timeout (1 s by
	// default, as Go's server does without an idle timeout), which in production an
	// ingress in front of it hides: a client here reusing a connection just as it
	// closes would see it reset. A longer read timeout is the deployment's choice.
	if err := parse(&s, opts.IdentityURL, "--server-listen-address="+listener.Addr().String(), "--server-read-timeout=1m"); err != nil {
		listener.Close()

		return err
	}

	h.server, err = s.GetServer(ctx, cli)
	if err != nil {
		listener.Close()

		return fmt.Errorf("region's server: %w", err)
	}

	h.workers.Add(1)

	go func() {
		defer h.workers.Done()

		if err := h.server.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(opts.Log, "region's server:", err)
		}
	}()

	controllers, err := newControllers(ctx, cli, scheme, opts.IdentityURL)
	if err != nil {
		return err
	}

	collector := &collector{client: cli}

	for _, c := range controllers {
		h.workers.Add(1)

		go func() {
			defer h.workers.Done()
			queues.run(ctx, c.kind, c.reconciler)
		}()
	}

	h.workers.Add(1)

	go func() {
		defer h.workers.Done()
		collector.run(ctx, queues)
	}()

	return nil
}

// Close stops the server and the controllers.
func (h *Harness) Close() {
	if h.server != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = h.server.Shutdown(ctx)

		cancel()
	}

	h.cancel()
	h.workers.Wait()
}

func listen(address string) (net.Listener, error) {
	if address == "" {
		address = "127.0.0.1:0"
	}

	return net.Listen("tcp", address)
}

// flagged is a component that takes its options from command-line flags.
type flagged interface {
	AddFlags(flags *pflag.FlagSet)
}

// parse sets a component's options from the flags its binary would be given: the
// namespace, identity's host and the client certificate, and any more given.
func parse(component flagged, identityURL string, more ...string) error {
	flags := pflag.NewFlagSet("region", pflag.ContinueOnError)
	component.AddFlags(flags)

	args := append([]string{
		"--identity-host=" + identityURL,
		"--client-certificate-namespace=" + Namespace,
		"--client-certificate-name=" + clientCertificateName,
	}, more...)

	if flags.Lookup("namespace") != nil {
		args = append(args, "--namespace="+Namespace)
	}

	// Each binary takes only the flags of the options it has.
	known := args[:0]

	for _, arg := range args {
		name, _, _ := strings.Cut(strings.TrimPrefix(arg, "--"), "=")
		if flags.Lookup(name) != nil {
			known = append(known, arg)
		}
	}

	return flags.Parse(known)
}

// seed makes what region's chart and CI fixtures would have made before it starts:
// its regions and its client certificate.
func seed(ctx context.Context, cli client.Client, regions []Region) error {
	certificate, key, err := clientCertificate()
	if err != nil {
		return err
	}

	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: Namespace, Name: clientCertificateName},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{corev1.TLSCertKey: certificate, corev1.TLSPrivateKeyKey: key},
	}

	if err := cli.Create(ctx, secret); err != nil {
		return err
	}

	for _, r := range regions {
		region := &regionv1.Region{
			ObjectMeta: metav1.ObjectMeta{
				Namespace: Namespace,
				Name:      r.ID,
				Labels:    map[string]string{coreconstants.NameLabel: r.Name},
			},
			Spec: regionv1.RegionSpec{Provider: regionv1.ProviderSimulated},
		}

		if len(r.Organizations) > 0 {
			region.Spec.Security = &regionv1.RegionSecuritySpec{}

			for _, id := range r.Organizations {
				region.Spec.Security.Organizations = append(region.Spec.Security.Organizations, regionv1.RegionSecurityOrganizationSpec{ID: id})
			}
		}

		if err := cli.Create(ctx, region); err != nil {
			return err
		}
	}

	return nil
}

// clientCertificate is a self-signed certificate and its RSA key, PEM encoded, as
// cert-manager would issue region.
func clientCertificate() ([]byte, []byte, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, nil, err
	}

	template := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "unikorn-region"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}

	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}

	certificate := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	private := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})

	return certificate, private, nil
}

// logger writes log lines to w, one a line.
func logger(w io.Writer) logr.Logger {
	var mu sync.Mutex

	return funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()

		fmt.Fprintln(w, time.Now().Format("15:04:05.000"), prefix, args)
	}, funcr.Options{})
}
