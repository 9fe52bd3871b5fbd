package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// The families still in this package speak core's vocabulary under their old names
// until each moves into a folder of its own.

type (
	request    = core.Request
	reply      = core.Reply
	apiHandler = core.Handler
	principal  = core.Caller
	apiError   = core.Error
	schedule   = core.Schedule
	listing    = core.Listing
)

var (
	errBadRequest         = core.BadRequest
	errForbidden          = core.Forbidden
	errUnprocessable      = core.Unprocessable
	errNotFound           = core.NotFound
	errConflict           = core.Conflict
	errConflictWith       = core.ConflictWith
	errServer             = core.ServerError
	errRBAC               = core.RBACError
	errNotPermitted       = core.NotPermitted
	errMissingMember      = core.MissingMember
	replyOK               = core.OK
	replyCreated          = core.Created
	replyAccepted         = core.Accepted
	replyNoContent        = core.NoContent
	uncacheable           = core.Uncacheable
	writeJSON             = core.WriteJSON
	writeError            = core.WriteError
	writeUnauthorized     = core.WriteUnauthorized
	baseURL               = core.BaseURL
	bearerToken           = core.BearerToken
	decodeBody            = core.DecodeBody
	validateWriteMetadata = core.ValidateWriteMetadata
	validateUUID          = core.ValidateUUID
	requiredWith          = core.RequiredWith
	parseListQuery        = core.ParseListQuery
	projectListing        = core.ProjectListing
	oneOf                 = core.OneOf
	showsInvisible        = core.ShowsInvisible
	visibleOrganizations  = core.VisibleOrganizations
	requireOrganization   = core.RequireOrganization
	allowInProject        = core.AllowInProject
	forbidden             = core.Forbid
	provisionSchedule     = core.ProvisionSchedule
	reprovisionSchedule   = core.ReprovisionSchedule
	deprovisionSchedule   = core.DeprovisionSchedule
	applyProvisioning     = core.ApplyProvisioning
	markDeleting          = core.MarkDeleting
	failProvisioning      = core.FailProvisioning
	newReadMetadata       = core.NewReadMetadata
	projectMetadata       = core.ProjectMetadata
	rewriteMetadata       = core.RewriteMetadata
	provisionedMetadata   = core.ProvisionedMetadata
	newResourceID         = core.NewResourceID
	copyAllocation        = core.CopyAllocation
	nonNil                = core.NonNil
	fixtureTime           = core.FixtureTime
)

const (
	opCreate = core.OpCreate
	opRead   = core.OpRead
	opUpdate = core.OpUpdate
	opDelete = core.OpDelete
	toGone   = core.ToGone
)

func byID[R any](records map[string]*R) []*R { return core.ByID(records) }

func selectList[R, T any](q *core.ListQuery, caller *core.Caller, records map[string]*R, render func(*R) (T, core.Listing)) []T {
	return core.SelectList(q, caller, records, render)
}

func lookup[R any](records map[string]*R, id string, caller *core.Caller, metadataOf func(*R) *unikorn.ProjectScopedMetadata, endpoint, operation string) (*R, error) {
	return core.Lookup(records, id, caller, metadataOf, endpoint, operation)
}

// RBAC endpoint names, as the real services name them in their ACLs.
const (
	rbacOrganizations  = "identity:organizations"
	rbacProjects       = "identity:projects"
	rbacQuotas         = "identity:quotas"
	rbacAllocations    = "identity:allocations"
	rbacGroups         = "identity:groups"
	rbacServiceAccount = "identity:serviceaccounts"
	rbacRoles          = "identity:roles"
	rbacUsers          = "identity:users"
	rbacRegions        = "region:regions"
	rbacFlavors        = "region:flavors"
	rbacImages         = "region:images"
	rbacNetworks       = "region:networks:v2"
	rbacSecurityGroups = "region:securitygroups:v2"
	rbacSSHCAs         = "region:sshcertificateauthorities:v2"
	rbacLoadBalancers  = "region:loadbalancers:v2"
	rbacServers        = "region:servers"
)

// lookupNetwork reads a network, as region's handlers do, for an operation on what
// stands on it.
func (s *Sandbox) lookupNetwork(req *request, id, endpoint, operation string) (*unikorn.Network, error) {
	return core.LookupAs[unikorn.Network](req.Store, id, req.Caller, endpoint, operation)
}

// regionVisible reports whether the region exists for the caller.
func regionVisible(req *request, id string) bool {
	_, ok := core.Visible[unikorn.Region](req.Store, req.Caller, id)

	return ok
}
