package loadbalancing

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

var _ LoadBalancers = (*Service)(nil)

// Service manages load balancers over a session shared with the façade's other
// families.
type Service struct {
	session *cloud.Session
	client  *unikorn.Client
}

// NewService returns the load balancing façade over session.
func NewService(session *cloud.Session) *Service {
	return &Service{session: session, client: session.Client()}
}

// object is the façade's view of region's load balancers. Nothing in region keeps a
// load balancer from being deleted.
func (s *Service) object() cloud.Object[unikorn.LoadBalancer] {
	return cloud.Object[unikorn.LoadBalancer]{
		Kind: "load balancer",
		Get:  s.client.GetLoadBalancer, Del: s.client.DeleteLoadBalancer,
		Metadata: func(lb *unikorn.LoadBalancer) *unikorn.ReadMetadata { return &lb.Metadata.ReadMetadata },
	}
}

// Read returns the load balancer with id, or nil when region definitely has none.
func (s *Service) Read(ctx context.Context, id string) (*LoadBalancer, error) {
	lb, err := s.object().Read(ctx, s.session, id)
	if lb == nil || err != nil {
		return nil, err
	}

	return fromWire(lb), nil
}

// List returns the load balancers q selects that the token may see.
func (s *Service) List(ctx context.Context, q Query) ([]LoadBalancer, error) {
	query := unikorn.LoadBalancerQuery{
		OrganizationIDs: cloud.Only(q.OrganizationID),
		ProjectIDs:      cloud.Only(q.ProjectID),
		RegionIDs:       cloud.Only(q.RegionID),
		NetworkIDs:      cloud.Only(q.NetworkID),
		Tags:            cloud.TagsOf(q.Tags).Wire(),
	}

	return cloud.All(fromWire)(s.client.ListLoadBalancers(ctx, query))
}

// NetworkPrefix returns the prefix of a network. A network created moments ago may
// not be in region's cache yet, so a 404 is believed only past the read lag.
func (s *Service) NetworkPrefix(ctx context.Context, networkID string) (string, error) {
	var network *unikorn.Network

	err := s.session.PastReadLag(ctx, func(ctx context.Context) error {
		read, err := s.client.GetNetwork(ctx, networkID)
		network = read

		return err
	})
	if err != nil {
		return "", err
	}

	return network.Status.Prefix, nil
}

// Create creates a load balancer and waits until region has provisioned it with its
// VIP, and its public IP when it asks for one. The POST is sent once, and even when
// the caller is interrupted; a create whose answer was lost is looked for on the
// network by name and adopted. Whatever the wait says, a load balancer that exists is
// returned, so that the caller keeps track of it.
func (s *Service) Create(ctx context.Context, c Create) (*LoadBalancer, error) {
	if err := validate(c.Spec, c.VIPAddress); err != nil {
		return nil, err
	}

	metadata, spec := c.wire()
	body := unikorn.LoadBalancerCreate{
		Metadata: metadata,
		Spec:     unikorn.LoadBalancerCreateSpec{LoadBalancerSpec: spec, NetworkID: c.NetworkID, VIPAddress: c.VIPAddress},
	}

	list := func(ctx context.Context) ([]unikorn.LoadBalancer, error) {
		return s.client.ListLoadBalancers(ctx, unikorn.LoadBalancerQuery{NetworkIDs: []string{c.NetworkID}})
	}

	created, err := s.object().Post(ctx, s.session, c.Name, list, func(ctx context.Context) (*unikorn.LoadBalancer, error) {
		lb, err := s.client.CreateLoadBalancer(context.WithoutCancel(ctx), body)
		if quota := quotaError(err, c.PublicIP, false); quota != nil {
			return nil, quota
		}

		return lb, err
	})
	if err != nil {
		return nil, err
	}

	id := created.Metadata.ID
	read, err := s.waitSettled(ctx, id, "provisioned with its addresses", func(lb *unikorn.LoadBalancer) bool { return true }, c.PublicIP)

	if read == nil {
		read = created
	}

	return fromWire(read), err
}

// Update replaces the load balancer's document with spec (its network and VIP stay)
// and waits until a read shows the new document provisioned, with its public IP as
// asked. Region applies a PUT under an optimistic lock on the version its cache
// holds, so a conflict is no refusal: the document is read again and applied again
// until region takes it. The PUT replaces the whole document, so sending it again is
// safe, also after an answer that was lost.
func (s *Service) Update(ctx context.Context, id string, spec Spec) (*LoadBalancer, error) {
	if err := validate(spec, ""); err != nil {
		return nil, err
	}

	current, err := s.readForUpdate(ctx, id)
	if err != nil {
		return nil, err
	}

	if problems := ImmutableChanges(specFromWire(current.Metadata.WriteMetadata, current.Spec).Listeners, spec.Listeners); len(problems) > 0 {
		return fromWire(current), &ValidationError{Problems: problems}
	}

	metadata, wire := spec.wire()
	update := unikorn.LoadBalancerUpdate{Metadata: metadata, Spec: wire}

	written, err := s.put(ctx, id, update, spec.PublicIP)
	if err != nil {
		return fromWire(current), err
	}

	shows := func(lb *unikorn.LoadBalancer) bool {
		return reflect.DeepEqual(lb.Metadata.WriteMetadata, written.Metadata.WriteMetadata) && reflect.DeepEqual(lb.Spec, written.Spec)
	}

	read, err := s.waitSettled(ctx, id, "updated", shows, spec.PublicIP)
	if read == nil {
		read = current
	}

	return fromWire(read), err
}

// readForUpdate reads the load balancer an update is for, riding out failures that
// are no answer: one region definitely has not (past the read lag) is gone, one it is
// deleting cannot be updated.
func (s *Service) readForUpdate(ctx context.Context, id string) (*unikorn.LoadBalancer, error) {
	var current *unikorn.LoadBalancer

	settled := s.session.UnseenSettled()

	read := func(ctx context.Context) (bool, error) {
		began := time.Now()
		lb, err := s.client.GetLoadBalancer(ctx, id)

		switch {
		case unikorn.IsNotFound(err) && cloud.Unsettled(began, settled):
			return false, nil
		case unikorn.IsNotFound(err):
			return false, &GoneError{ID: id}
		case err != nil:
			return false, cloud.ReadFailed(err)
		case lb.Metadata.DeletionTime != nil:
			return false, &DeletingError{ID: id}
		}

		current = lb

		return true, nil
	}

	if err := s.session.WaitForNow(ctx, "load balancer "+id+" to be read", read); err != nil {
		return nil, err
	}

	return current, nil
}

// put sends update until region takes it, and returns the document region answered
// with, as it stores it. A conflict or a failure that is no answer is tried again
// on the next tick; a 404 is believed only past the read lag.
func (s *Service) put(ctx context.Context, id string, update unikorn.LoadBalancerUpdate, publicIP bool) (*unikorn.LoadBalancer, error) {
	// Sent even when the caller is interrupted: only the wait that follows stops.
	writes := context.WithoutCancel(ctx)

	var (
		written *unikorn.LoadBalancer
		missing time.Time
	)

	send := func(ctx context.Context) (bool, error) {
		began := time.Now()
		lb, err := s.client.UpdateLoadBalancer(writes, id, update)

		switch {
		case err == nil:
			written = lb

			return true, nil
		case unikorn.IsConflict(err):
			// The cache held an older version; reading again lets it catch up, and
			// shows a deletion that began meanwhile.
			if read, readErr := s.client.GetLoadBalancer(ctx, id); readErr == nil && read.Metadata.DeletionTime != nil {
				return false, &DeletingError{ID: id}
			}

			return false, nil
		case unikorn.IsNotFound(err):
			if missing.IsZero() {
				missing = s.session.UnseenSettled()
			}

			if !cloud.Unsettled(began, missing) {
				return false, &GoneError{ID: id}
			}

			return false, nil
		case unikorn.IsUnprocessable(err):
			if read, readErr := s.client.GetLoadBalancer(ctx, id); readErr == nil && read.Metadata.DeletionTime != nil {
				return false, &DeletingError{ID: id}
			}

			return false, err
		}

		if quota := quotaError(err, publicIP, true); quota != nil {
			return false, quota
		}

		// A failure that is no answer is sent again; a refusal ends the wait.
		return false, cloud.ReadFailed(err)
	}

	err := s.session.WaitForNow(ctx, "load balancer "+id+" to take the update", send)

	return written, err
}

// waitSettled waits until a read of the load balancer shows what shows looks for,
// provisioned, with its VIP, and with a public IP exactly when publicIP. Until a read
// shows the write, what it says of provisioning is about an older version: region
// has no observed generation. It returns the last read even on failure.
func (s *Service) waitSettled(ctx context.Context, id, what string, shows func(*unikorn.LoadBalancer) bool, publicIP bool) (*unikorn.LoadBalancer, error) {
	var last *unikorn.LoadBalancer

	// A 404 right after a write is the cache, not an answer.
	settled := s.session.UnseenSettled()

	err := s.session.WaitFor(ctx, "load balancer "+id+" to be "+what, func(ctx context.Context) (bool, error) {
		began := time.Now()
		read, err := s.client.GetLoadBalancer(ctx, id)

		switch {
		case unikorn.IsNotFound(err) && cloud.Unsettled(began, settled):
			return false, nil
		case unikorn.IsNotFound(err):
			return false, &GoneError{ID: id}
		case err != nil:
			return false, cloud.ReadFailed(err)
		}

		last = read

		switch {
		case !shows(read):
			return false, nil
		case read.Metadata.DeletionTime != nil:
			return false, &DeletingError{ID: id}
		case read.Metadata.ProvisioningStatus == unikorn.ProvisioningError:
			return false, &ProvisioningFailedError{ID: id}
		}

		return read.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned &&
			read.Status.VIPAddress != "" && (read.Status.PublicIP != "") == publicIP, nil
	})

	return last, err
}

// Delete deletes the load balancer and waits until region definitely has none;
// created, when not zero, is its creation time (see cloud.Object.Delete).
func (s *Service) Delete(ctx context.Context, id string, created time.Time) error {
	return s.object().Delete(ctx, s.session, id, created)
}

// validate refuses, before anything is sent, a document region would refuse.
func validate(spec Spec, vip string) error {
	problems := ValidateListeners(spec.Listeners)

	if err := ValidateName(spec.Name); err != nil {
		problems = append(problems, Problem{Field: FieldName, Summary: "Invalid load balancer name", Detail: err.Error()})
	}

	if vip != "" {
		if _, ok := CanonicalAddress(vip); !ok {
			problems = append(problems, Problem{Field: FieldVIPAddress, Summary: "Invalid VIP", Detail: "vip_address " + vip + " is not an IPv4 address."})
		}
	}

	if len(problems) > 0 {
		return &ValidationError{Problems: problems}
	}

	return nil
}

// quotaError is the QuotaError a refusal of identity's is, or nil for any other
// error: region passes on identity's 403, which names the quota it would exceed.
func quotaError(err error, publicIP, updating bool) error {
	var apiErr *unikorn.APIError
	if !cloud.IsQuotaRefusal(err) || !errors.As(err, &apiErr) {
		return nil
	}

	var kinds []string

	for _, kind := range []string{"loadbalancers", "publicips"} {
		if strings.Contains(apiErr.Description, kind) {
			kinds = append(kinds, kind)
		}
	}

	if len(kinds) == 0 {
		kinds = []string{"loadbalancers"}
		if publicIP {
			kinds = append(kinds, "publicips")
		}
	}

	return &QuotaError{Kinds: kinds, Updating: updating, Err: err}
}
