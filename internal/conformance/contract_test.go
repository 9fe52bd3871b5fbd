package conformance

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
)

// openAPIDirEnv names the folder that holds the upstream OpenAPI documents.
const openAPIDirEnv = "UNIKORN_OPENAPI_DIR"

// documents are the upstream documents the client calls, by the service that
// publishes them. They reference the core document beside them. Compute declares
// catalogue paths that region declares too, so the run serves it under prefix and
// only requests under that prefix are compute's. Region v1.20.0 is the first to
// publish some kinds, and judges exactly the paths under its paths; everything else
// of region keeps v1.17.4, the only document that also carries the service operations.
// Region's volumes are published in no whole document: the document of their paths
// alone, copied from upstream's spec of the v1.25 line, judges them. Compute's
// instances carry their volumes in the schemas of a fragment (see fragment).
var documents = []struct {
	service, file, prefix string
	paths                 []string
	// fragment names the fragment whose schemas stand in for the document's own of
	// the same name.
	fragment string
}{
	{"region", "region-v1.17.4.spec.yaml", "", nil, ""},
	{"region v1.20.0", "region-v1.20.0.public.yaml", "", []string{"/api/v2/loadbalancers", "/api/v2/filestorage", "/api/v2/filestorageclasses"}, ""},
	{"region volumes", "region-volumes-4e37c3d.spec.yaml", "", []string{"/api/v2/volumes", "/api/v2/volumeclasses"}, ""},
	{"identity", "identity-v1.17.7.spec.yaml", "", nil, ""},
	{"compute", "compute-v1.17.0.spec.yaml", computePrefix, nil, computeVolumesFragment},
	{"kubernetes", "kubernetes-v1.16.3.spec.yaml", kubernetesPrefix, nil, ""},
}

// computePrefix is the path under which the sandbox serves its compute service.
var computePrefix = sandbox.ComputePrefix

// uuidPattern is what `format: uuid` means here: the canonical 8-4-4-4-12 hex layout.
// kin-openapi leaves the format unchecked unless told, and its RFC 4122 pattern would
// reject region's own fixture IDs (11111111-1111-1111-1111-111111111111), whose
// version and variant nibbles are not RFC values. Formats stay otherwise as upstream
// validates them: ipv4 in particular is unchecked, because security group rule
// prefixes, declared ipv4, carry CIDRs (unikorn-api.md 2.5).
const uuidPattern = `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`

// service is one upstream document and the router that finds its operations.
type service struct {
	name   string
	prefix string
	// paths, when set, are the only paths the document judges; no other judges them.
	paths  []string
	router routers.Router
}

// judges reports whether a document scoped to paths judges path (without prefix).
func (s service) judges(path string) bool {
	for _, p := range s.paths {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}

	return false
}

// contract is the wire contract: it finds the operation an exchange belongs to and
// checks the request and the response against it.
type contract struct {
	services []service
	options  *openapi3filter.Options
}

// violation is one way an exchange breaks the contract.
type violation struct {
	// operation is the service, method and path template, e.g.
	// "region GET /api/v2/servers/{serverID}", or the raw path when no operation matched.
	operation string
	// direction is "request" or "response".
	direction string
	message   string
}

func (v violation) String() string {
	return fmt.Sprintf("%s [%s]: %s", v.operation, v.direction, v.message)
}

// summarize renders violations in the order first seen, each once: polling repeats
// the same exchange many times.
func summarize(violations []violation) []string {
	var (
		order []violation
		count = map[violation]int{}
	)

	for _, v := range violations {
		if count[v] == 0 {
			order = append(order, v)
		}

		count[v]++
	}

	lines := make([]string, 0, len(order))

	for _, v := range order {
		line := v.String()
		if n := count[v]; n > 1 {
			line += fmt.Sprintf(" (%d times)", n)
		}

		lines = append(lines, line)
	}

	return lines
}

// loadContract loads and validates the documents in dir. They validate unchanged, so
// no loader or validation option is relaxed.
func loadContract(t *testing.T, dir string) *contract {
	t.Helper()

	c := &contract{
		options: &openapi3filter.Options{
			// Authentication is the sandbox's business; here only the shape counts.
			AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
			// An undeclared status is as much a break of the contract as a bad body.
			IncludeResponseStatus: true,
			// Report every problem of an exchange, not just the first.
			MultiError: true,
			// A body sent to an operation that declares none (start, stop, ...) is a break too.
			RejectWhenRequestBodyNotSpecified: true,
			SchemaValidationOptions: []openapi3.SchemaValidationOption{
				openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(uuidPattern)),
				// Messages name the member and the reason without dumping the schema.
				openapi3.DisableSchemaErrorDetails(),
			},
		},
	}

	for _, document := range documents {
		path := filepath.Join(dir, document.file)

		loader := openapi3.NewLoader()
		loader.IsExternalRefsAllowed = true

		doc, err := loader.LoadFromFile(path)
		require.NoError(t, err, "loading %s", path)
		require.NoError(t, doc.Validate(t.Context()), "validating %s", path)

		if document.fragment != "" {
			patchSchemas(t, doc, loadFragment(t, dir, document.fragment))
		}

		// Routes must match on the path alone, whatever host the sandbox listens on.
		// Compute names its production host; the prefix stands in for it here.
		if document.prefix != "" {
			doc.Servers = nil
		}

		require.Empty(t, doc.Servers, "%s declares servers; the routers would then match on their hosts", path)

		router, err := gorillamux.NewRouter(doc)
		require.NoError(t, err, "routing %s", path)

		c.services = append(c.services, service{name: document.service, prefix: document.prefix, paths: document.paths, router: router})
	}

	return c
}

// exchange is one attempt of the client: the request as sent and the response as
// received, bodies included.
type exchange struct {
	request      *http.Request
	requestBody  []byte
	status       int
	header       http.Header
	responseBody []byte
}

// check returns every way the exchange breaks the contract. skipResponseBody leaves
// the response body unchecked (status and headers still are).
func (c *contract) check(ctx context.Context, ex exchange, skipResponseBody bool) []violation {
	request := withBody(ex.request, ex.requestBody)

	m, err := c.find(request)
	if err != nil {
		return []violation{{operation: request.Method + " " + request.URL.Path, direction: "request", message: err.Error()}}
	}

	request = m.request

	var found []violation

	report := func(direction, format string, args ...any) {
		found = append(found, violation{
			operation: fmt.Sprintf("%s %s %s", m.service, m.route.Method, m.route.Path),
			direction: direction,
			message:   fmt.Sprintf(format, args...),
		})
	}

	requestInput := &openapi3filter.RequestValidationInput{
		Request:    request,
		PathParams: m.pathParams,
		Route:      m.route,
		Options:    c.options,
	}

	for _, message := range messages(openapi3filter.ValidateRequest(ctx, requestInput)) {
		report("request", "%s", message)
	}

	for _, name := range undeclaredQueryParameters(m.route, request.URL.Query()) {
		report("request", "query parameter %q is not declared", name)
	}

	if body := m.route.Operation.RequestBody; body != nil && body.Value != nil && ex.requestBody != nil {
		for _, member := range undeclaredBodyMembers(body.Value.Content, request.Header, ex.requestBody) {
			report("request", "body member %q is not declared", member)
		}
	}

	options := *c.options
	options.ExcludeResponseBody = skipResponseBody

	err = openapi3filter.ValidateResponse(ctx, &openapi3filter.ResponseValidationInput{
		RequestValidationInput: requestInput,
		Status:                 ex.status,
		Header:                 ex.header,
		Body:                   io.NopCloser(bytes.NewReader(ex.responseBody)),
		Options:                &options,
	})

	for _, message := range messages(err) {
		report("response", "%d: %s", ex.status, message)
	}

	if response := m.route.Operation.Responses.Status(ex.status); response != nil && response.Value != nil && !skipResponseBody {
		for _, member := range undeclaredBodyMembers(response.Value.Content, ex.header, ex.responseBody) {
			report("response", "%d: body member %q is not declared", ex.status, member)
		}
	}

	return found
}

// match is the operation that serves a request.
type match struct {
	service    string
	route      *routers.Route
	pathParams map[string]string
	// request is the request as its document sees it: without the service's prefix.
	request *http.Request
}

// find returns the one operation, across every document, that serves request.
func (c *contract) find(request *http.Request) (match, error) {
	var (
		found  []match
		misses []string
	)

	owner := ""

	for _, s := range c.services {
		if s.prefix != "" && strings.HasPrefix(request.URL.Path, s.prefix+"/") {
			owner = s.prefix
		}
	}

	// A document scoped to the request's path judges it alone.
	scoped := false

	for _, s := range c.services {
		if s.prefix == owner && s.judges(strings.TrimPrefix(request.URL.Path, owner)) {
			scoped = true
		}
	}

	for _, s := range c.services {
		judges := s.judges(strings.TrimPrefix(request.URL.Path, owner))
		if s.prefix != owner || (scoped || len(s.paths) > 0) && !judges {
			continue
		}

		routed := request
		if owner != "" {
			routed = request.Clone(request.Context())
			routed.URL.Path = strings.TrimPrefix(request.URL.Path, owner)
			routed.URL.RawPath = ""
		}

		route, pathParams, err := s.router.FindRoute(routed)
		if err != nil {
			misses = append(misses, fmt.Sprintf("%s: %v", s.name, err))

			continue
		}

		found = append(found, match{service: s.name, route: route, pathParams: pathParams, request: routed})
	}

	switch len(found) {
	case 0:
		return match{}, fmt.Errorf("no document declares this operation (%s)", strings.Join(misses, "; "))
	case 1:
		return found[0], nil
	default:
		return match{}, fmt.Errorf("both %s and %s declare this operation", found[0].service, found[1].service)
	}
}

// withBody returns a copy of request whose body reads body, so that validation
// neither consumes nor races with what the transport sends.
func withBody(request *http.Request, body []byte) *http.Request {
	clone := request.Clone(request.Context())
	clone.Body = http.NoBody

	if body != nil {
		clone.Body = io.NopCloser(bytes.NewReader(body))
	}

	return clone
}

// messages flattens what kin-openapi reports, one line per problem.
func messages(err error) []string {
	if err == nil {
		return nil
	}

	// Only the top level is split: a nested MultiError belongs to the parameter or
	// body that its wrapper names.
	if multi, ok := err.(openapi3.MultiError); ok { //nolint:errorlint // Deliberately the top level only, see above.
		var all []string
		for _, e := range multi {
			all = append(all, messages(e)...)
		}

		return all
	}

	return []string{err.Error()}
}
