package volumes

import "fmt"

// QuotaError means identity refused to charge the volume's size to the organization's
// quota, which region asks for every volume it makes: nothing was created.
type QuotaError struct {
	SizeGiB int64
	Err     error
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("the organization's volume quota does not hold another %d GiB: %v", e.SizeGiB, e.Err)
}

func (e *QuotaError) Unwrap() error { return e.Err }
