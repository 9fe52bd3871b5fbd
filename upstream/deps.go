//go:build tools

// The suites are test-only packages, which nothing can import; naming what they import
// keeps `go mod tidy` from dropping it, so that `go test -c` builds them from go.sum.
package main

import (
	_ "github.com/Masterminds/semver/v3"
	_ "github.com/go-jose/go-jose/v4"
	_ "github.com/go-jose/go-jose/v4/jwt"
	_ "github.com/google/uuid"
	_ "github.com/gophercloud/gophercloud/v2/openstack/compute/v2/servers"
	_ "github.com/onsi/ginkgo/v2"
	_ "github.com/onsi/gomega"
	_ "github.com/unikorn-cloud/core/pkg/openapi"
	_ "github.com/unikorn-cloud/core/pkg/testing/client"
	_ "github.com/unikorn-cloud/identity/pkg/openapi"
	_ "github.com/unikorn-cloud/identity/test/api"
	_ "github.com/unikorn-cloud/region/pkg/ids/idstest"
	_ "github.com/unikorn-cloud/region/pkg/openapi"
	_ "github.com/unikorn-cloud/region/test/api"
	_ "golang.org/x/crypto/ssh"
)
