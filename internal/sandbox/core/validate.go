package core

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/google/uuid"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/openapi"
)

// Every Unikorn service checks a request against its own OpenAPI document before a
// handler sees it (identity's pkg/middleware/openapi, which region and compute use too):
// once core's routeresolver has found the operation (404 and 405 otherwise),
// openapi3filter.ValidateRequest runs the operation's security first, authenticating
// the bearer token (a failure is the 401 of the authentication itself), then its
// parameters, then its body, stopping at the first error (no MultiError). That error's
// text is the description of a 400 invalid_request. RBAC comes later, in the handlers, so
// a malformed request from an authenticated caller is refused as malformed even where it
// would also be forbidden. Between the two, the router oapi-codegen generated binds the
// path and query parameters to their Go types, refusing a UUID that does not parse with
// its own 400 (bindsUUIDs).

// contracts are the services' documents, loaded once per process each: parsing them
// is far too slow for a request, and they never change.
var contracts sync.Map // name → func() (*openapi3.T, error)

// contract is a service's document, named by the file it is in: two services with
// the same name have the same document.
func contract(service *Service) (*openapi3.T, error) {
	load, _ := contracts.LoadOrStore(service.Document, sync.OnceValues(func() (*openapi3.T, error) {
		registerFormDecoder()

		return openapi.Load(service.Document, service.Documents)
	}))

	return load.(func() (*openapi3.T, error))() //nolint:forcetypeassert // only contract stores
}

// registerFormDecoder registers the form decoder identity's kin-openapi uses, once per
// process, as kin-openapi keeps them.
var registerFormDecoder = sync.OnceFunc(func() {
	openapi3filter.RegisterBodyDecoder(formMediaType, formBodyAsUpstream)
})

// loadContracts loads the services' documents before the first request, and learns
// from them which path parameters are UUIDs.
func (s *Server) loadContracts() error {
	parameters := map[string]bool{}

	for _, service := range s.documents() {
		spec, err := contract(service)
		if err != nil {
			return err
		}

		for _, item := range spec.Paths.Map() {
			for _, operation := range item.Operations() {
				for _, list := range []openapi3.Parameters{item.Parameters, operation.Parameters} {
					for _, parameter := range list {
						if isUUIDParameter(parameter.Value) && parameter.Value.In == openapi3.ParameterInPath {
							parameters[parameter.Value.Name] = true
						}
					}
				}
			}
		}
	}

	s.uuidParameters = SortedKeys(parameters)

	return nil
}

// contractOperation is the operation of a service's document that a sandbox route
// serves, with the document's path template split at its slashes to read the path
// parameters by position.
type contractOperation struct {
	route    *routers.Route
	segments []string
	prefix   string
	secured  bool
	// uuids are the path and query parameters whose schema is `format: uuid`, which
	// the generated server binds to a UUID type.
	uuids []*openapi3.Parameter
}

// contractOperations caches, per process, the operation each "service pattern" key
// resolves to; nil where the document has none (the sandbox's own extras).
var contractOperations sync.Map

// operationFor is the operation of the contract a request to a route pattern falls
// under: its service's (serviceFor).
func (s *Server) operationFor(r *http.Request, pattern string) *contractOperation {
	service := s.serviceFor(r, pattern)
	if service == nil || service.Document == "" {
		return nil
	}

	method, path, _ := strings.Cut(pattern, " ")

	// A path of a family's own contract is judged by it, not by its service's document.
	for _, contract := range s.contracts {
		if service.Handler == nil && contract.Judges(path) {
			service = &Service{Name: service.Name, Document: contract.Document, Documents: contract.Documents}
		}
	}

	prefix := ""
	if service.Handler != nil {
		prefix = service.Prefix
	}

	key := service.Document + " " + pattern
	if cached, ok := contractOperations.Load(key); ok {
		return cached.(*contractOperation) //nolint:forcetypeassert // only this function stores
	}

	operation := resolveOperation(service, method, strings.TrimPrefix(path, prefix))
	if operation != nil {
		operation.prefix = prefix
	}

	contractOperations.Store(key, operation)

	return operation
}

// resolveOperation finds the operation of a document by method and path template; the
// document's parameter names may differ from the sandbox's.
func resolveOperation(service *Service, method, template string) *contractOperation {
	spec, err := contract(service)
	if err != nil {
		return nil
	}

	item := spec.Paths.Find(template)
	if item == nil {
		return nil
	}

	operation := item.GetOperation(method)
	if operation == nil {
		return nil
	}

	var specPath string

	for candidate, value := range spec.Paths.Map() {
		if value == item {
			specPath = candidate
		}
	}

	security := operation.Security
	if security == nil {
		security = &spec.Security
	}

	var uuids []*openapi3.Parameter

	for _, parameters := range []openapi3.Parameters{item.Parameters, operation.Parameters} {
		for _, parameter := range parameters {
			if isUUIDParameter(parameter.Value) {
				uuids = append(uuids, parameter.Value)
			}
		}
	}

	return &contractOperation{
		route: &routers.Route{
			Spec: spec, Path: specPath, PathItem: item, Method: method, Operation: operation,
		},
		segments: strings.Split(specPath, "/"),
		secured:  len(*security) > 0,
		uuids:    uuids,
	}
}

func isUUIDParameter(parameter *openapi3.Parameter) bool {
	if parameter == nil || parameter.Schema == nil || parameter.Schema.Value == nil {
		return false
	}

	in := parameter.In == openapi3.ParameterInPath || parameter.In == openapi3.ParameterInQuery

	return in && parameter.Schema.Value.Format == "uuid"
}

// errUnboundParameter is what the services' generated routers answer when a path or
// query parameter will not bind to its type (region's and identity's
// pkg/handler/error.go HandleError), after the OpenAPI middleware has passed the request.
var errUnboundParameter = BadRequest("invalid path/query element")

// bindsUUIDs reports whether every UUID parameter present binds as the generated
// server's UUID type (google/uuid's parser) does; a path parameter is always present.
func (o *contractOperation) bindsUUIDs(r *http.Request, path map[string]string) bool {
	for _, parameter := range o.uuids {
		value, present := path[parameter.Name]

		if parameter.In == openapi3.ParameterInQuery {
			values, ok := r.URL.Query()[parameter.Name]
			if !ok {
				continue
			}

			value, present = values[0], true
		}

		if !present {
			continue
		}

		if _, err := uuid.Parse(value); err != nil {
			return false
		}
	}

	return true
}

// pathParameters reads the values of the document's path parameters off the request's
// path, which has as many segments as the template it matched.
func (o *contractOperation) pathParameters(path string) map[string]string {
	values := strings.Split(strings.TrimPrefix(path, o.prefix), "/")
	if len(values) != len(o.segments) {
		return nil
	}

	params := map[string]string{}

	for i, segment := range o.segments {
		if name, ok := strings.CutPrefix(segment, "{"); ok {
			params[strings.TrimSuffix(name, "}")] = values[i]
		}
	}

	return params
}

// refuseInvalid answers a request that breaks its operation's contract with the 400
// the service gives, and reports whether it did. A request the contract takes, or
// whose caller fails to authenticate, goes on to its handler, which authenticates it as
// before (the 401 comes first, as upstream's security check precedes the rest).
func (s *Server) refuseInvalid(w http.ResponseWriter, r *http.Request, pattern string) bool {
	operation := s.operationFor(r, pattern)
	if operation == nil {
		return false
	}

	// A path that is not the template's shape is one the mux redirects to its clean
	// form (a doubled slash), not one this operation serves.
	path := operation.pathParameters(r.URL.Path)
	if path == nil {
		return false
	}

	input := &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: path,
		Route:      operation.route,
		Options:    &openapi3filter.Options{AuthenticationFunc: s.authenticatesPlausibly},
	}

	err := openapi3filter.ValidateRequest(r.Context(), input)
	if err == nil && !operation.bindsUUIDs(r, path) {
		err = errUnboundParameter
	}

	if err == nil {
		return false
	}

	var security *openapi3filter.SecurityRequirementsError
	if errors.As(err, &security) {
		return false
	}

	// Only a plausible token was seen so far: one that no longer resolves (expired,
	// revoked) is the handler's 401, not this 400. Checked only here, where it is rare.
	if operation.secured {
		if token, tokenErr := BearerToken(r); tokenErr != nil || !s.ValidToken(token) {
			return false
		}
	}

	if !errors.Is(err, errUnboundParameter) {
		err = BadRequest("%s", err.Error())
	}

	WriteError(w, err)

	return true
}

// authenticatesPlausibly is the security check of the validation: the bearer token at
// least names a principal. Resolving it fully takes the world's lock, which a valid
// request leaves to its handler.
func (s *Server) authenticatesPlausibly(_ context.Context, input *openapi3filter.AuthenticationInput) error {
	token, err := BearerToken(input.RequestValidationInput.Request)
	if err != nil {
		return err
	}

	if !s.plausibleToken(token) {
		return errors.New("token validation failed")
	}

	return nil
}

const formMediaType = "application/x-www-form-urlencoded"

// formBodyAsUpstream decodes a form body as the kin-openapi that Unikorn builds with
// (v0.132.0, newer than which the module's own copy is) does: every property the schema
// declares is present, nil where the form lacks it, so that `required` holds of an omitted
// nullable field. Identity's token endpoint thus leaves a missing grant_type to its
// handler, whose refusal names it. The decoder is registered process-wide, as
// kin-openapi keeps them.
func formBodyAsUpstream(body io.Reader, header http.Header, schema *openapi3.SchemaRef, encode openapi3filter.EncodingFn) (any, error) {
	value, err := openapi3filter.UrlencodedBodyDecoder(body, header, schema, encode)
	if err != nil {
		return nil, err
	}

	if form, ok := value.(map[string]any); ok {
		declareAbsent(form, schema)
	}

	return value, nil
}

// declareAbsent sets to nil each property of schema, and of the schemas it combines,
// that form lacks.
func declareAbsent(form map[string]any, schema *openapi3.SchemaRef) {
	if schema == nil || schema.Value == nil {
		return
	}

	for _, combined := range [][]*openapi3.SchemaRef{schema.Value.AllOf, schema.Value.AnyOf, schema.Value.OneOf} {
		for _, part := range combined {
			declareAbsent(form, part)
		}
	}

	for name := range schema.Value.Properties {
		if _, present := form[name]; !present {
			form[name] = nil
		}
	}
}
