package cloud

import "github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"

// Failure and Class are the wire client's classification of a failed call, which
// every family's diagnostics read: Unikorn answers 403 for RBAC, quota and "in use"
// alike, and only the client has the body that tells them apart.
type (
	Failure = unikorn.Failure
	Class   = unikorn.Class
)

// The classes of Failure; see unikorn.Class.
const (
	ClassOther        = unikorn.ClassOther
	ClassUnreachable  = unikorn.ClassUnreachable
	ClassDropped      = unikorn.ClassDropped
	ClassTimeout      = unikorn.ClassTimeout
	ClassUnconfigured = unikorn.ClassUnconfigured
	ClassUnauthorized = unikorn.ClassUnauthorized
	ClassRBAC         = unikorn.ClassRBAC
	ClassQuota        = unikorn.ClassQuota
	ClassInUse        = unikorn.ClassInUse
	ClassNotFound     = unikorn.ClassNotFound
	ClassConflict     = unikorn.ClassConflict
	ClassValidation   = unikorn.ClassValidation
	ClassOverloaded   = unikorn.ClassOverloaded
)

// Classify says what kind of failure err is, from the status and body of Unikorn's
// answer, or from the connection when there was none: only a failure of the
// connection is ClassUnreachable, and only a 403 whose body says quota is ClassQuota.
func Classify(err error) Failure { return unikorn.Classify(err) }

// IsQuotaRefusal reports whether err is a refusal because a quota would be exceeded.
func IsQuotaRefusal(err error) bool { return Classify(err).Class == ClassQuota }
