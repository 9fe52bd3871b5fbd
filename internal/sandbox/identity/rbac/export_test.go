package rbac

// The ACL as identity answers it, for the tests that read one.
type (
	ACLRead     = aclRead
	ACLEndpoint = aclEndpoint
)
