package kubernetes

import "github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"

// What the service stands in for until the sandbox's identity and openapi folders
// carry what it needs of them (see DESIGN.md, "A Kubernetes cluster"): each is
// faithful to the sandbox as it is, and goes once its counterpart is there.

// serviceToken is the account the service charges quota with. Identity's chart gives
// the Kubernetes service a role of its own (`kubernetes-service`); until the sandbox
// has its principal, the service uses the one the sandbox's compute service holds,
// which identity's allocations accept alike.
const serviceToken = fixture.ServiceToken

// clustersEndpoint is the endpoint identity's ACL is asked about for the service's
// clusters, `kubernetes:clusters` as the chart names it. The chart grants it exactly
// as it grants `compute:instances` (administrators and auditors at organization
// scope, users and readers at project scope, the same operations), and the sandbox's
// roles have only the latter so far.
const clustersEndpoint = "compute:instances"
