package cloud

import "github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"

// Class is what kind of failure an error is, as every family's diagnostics read it:
// Unikorn answers 403 for RBAC, quota and "in use" alike, and only the wire client
// has the body that tells them apart (see unikorn.Class, whose classes these are).
type Class int

// The classes of Failure, one for each of the wire client's (unikorn.Class says
// what each means): only a failure of the connection is ClassUnreachable, only a 403
// whose body says quota is ClassQuota, and ClassOther is what its own words explain.
const (
	ClassOther Class = iota
	ClassUnreachable
	ClassDropped
	ClassTimeout
	ClassUnconfigured
	ClassUnauthorized
	ClassRBAC
	ClassQuota
	ClassInUse
	ClassNotFound
	ClassConflict
	ClassValidation
	ClassOverloaded
)

// classes are the wire client's classes in the façade's terms.
var classes = map[unikorn.Class]Class{
	unikorn.ClassOther: ClassOther, unikorn.ClassUnreachable: ClassUnreachable, unikorn.ClassDropped: ClassDropped,
	unikorn.ClassTimeout: ClassTimeout, unikorn.ClassUnconfigured: ClassUnconfigured,
	unikorn.ClassUnauthorized: ClassUnauthorized, unikorn.ClassRBAC: ClassRBAC, unikorn.ClassQuota: ClassQuota,
	unikorn.ClassInUse: ClassInUse, unikorn.ClassNotFound: ClassNotFound, unikorn.ClassConflict: ClassConflict,
	unikorn.ClassValidation: ClassValidation, unikorn.ClassOverloaded: ClassOverloaded,
}

// Failure is what Classify learns of an error that its diagnostics read.
type Failure struct {
	Class Class
	// Operation and Endpoint are the right an RBAC refusal names ("create" on
	// "region:networks:v2"); empty when its body does not say.
	Operation, Endpoint string
	// Why is the RBAC refusal's reason, or a quota refusal's whole description.
	Why string
	// Quota is the quota kind a quota refusal names ("networks"); empty when it names none.
	Quota string
}

// failureFromWire is the wire client's classification in the façade's terms.
func failureFromWire(in unikorn.Failure) Failure {
	return Failure{Class: classes[in.Class], Operation: in.Operation, Endpoint: in.Endpoint, Why: in.Why, Quota: in.Quota}
}

// Classify says what kind of failure err is, from the status and body of Unikorn's
// answer, or from the connection when there was none: only a failure of the
// connection is ClassUnreachable, and only a 403 whose body says quota is ClassQuota.
func Classify(err error) Failure { return failureFromWire(unikorn.Classify(err)) }

// IsQuotaRefusal reports whether err is a refusal because a quota would be exceeded.
func IsQuotaRefusal(err error) bool { return Classify(err).Class == ClassQuota }
