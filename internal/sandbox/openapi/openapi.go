// Package openapi carries the upstream Unikorn OpenAPI specifications the sandbox
// validates requests against, embedded so the sandbox binary needs nothing beside it.
package openapi

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"

	"github.com/getkin/kin-openapi/openapi3"
)

//go:embed *.spec.yaml
var specs embed.FS

// The documents of each service. Region's references core's and identity's.
const (
	Identity = "identity-v1.17.7.spec.yaml"
	Region   = "region-v1.20.0.spec.yaml"
	Compute  = "compute-v1.17.0.spec.yaml"
)

// Load parses and validates one service's document, resolving its references among the
// embedded files alone; a family that brings its own documents (own, embedded in its
// folder) has them found first, their references to core's, identity's and region's
// documents among these.
func Load(name string, own ...fs.FS) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = true
	loader.ReadFromURIFunc = func(_ *openapi3.Loader, location *url.URL) ([]byte, error) {
		file := path.Base(location.Path)

		for _, fsys := range own {
			if fsys == nil {
				continue
			}

			body, err := fs.ReadFile(fsys, file)
			if !errors.Is(err, fs.ErrNotExist) {
				return body, err //nolint:wrapcheck // the loader names the file
			}
		}

		return specs.ReadFile(file)
	}

	spec, err := loader.LoadFromURI(&url.URL{Path: name})
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", name, err)
	}

	if err := spec.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("validating %s: %w", name, err)
	}

	return spec, nil
}
