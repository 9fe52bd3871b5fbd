package compute

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Create realizes spec as a new instance: it validates, charges the quota, and creates
// the server carrying the instance tag, undoing the charge when the server cannot be
// created. It returns once the instance exists, before it is ready, so that the caller
// can record it before waiting (see WaitReady): a failed wait then leaves a known,
// deletable instance rather than an orphan.
func (s *Service) Create(ctx context.Context, spec Spec) (*Instance, error) {
	placement, err := s.Validate(ctx, spec)
	if err != nil {
		return nil, err
	}

	network := placement.Network
	organizationID, projectID := network.Metadata.OrganizationID, network.Metadata.ProjectID

	id, err := unikorn.DeriveServerID(network.Metadata.ID, spec.Name)
	if err != nil {
		return nil, err
	}

	ctx = unikorn.Concerning(ctx, id)

	if err := s.checkServiceRights(ctx, network); err != nil {
		return nil, fmt.Errorf("checking that the token may call region's server API: %w", err)
	}

	// From the first write on, Terraform's cancellation no longer reaches the requests:
	// a write once sent is seen through (or undone), each request bounded by the
	// client's request timeout, so that nothing is left half-made and unknown.
	ctx = context.WithoutCancel(ctx)

	allocation, err := s.client.CreateAllocation(ctx, organizationID, projectID,
		allocationFor(id, placement.Flavor, spec.PublicIP))
	if err != nil {
		switch {
		case cloud.IsQuotaRefusal(err):
			return nil, &QuotaError{Err: err}
		case cloud.IsClientError(err):
			return nil, fmt.Errorf("charging the instance to the quota: %w", err)
		default:
			// Identity has no list to look the allocation up in: the window between
			// the request and its lost answer cannot be closed, only reported.
			return nil, &ChargeUnknownError{InstanceID: id, Err: err}
		}
	}

	server, err := s.client.CreateServer(ctx, unikorn.ServerCreate{
		Metadata: unikorn.WriteMetadata{
			Name:        spec.Name,
			Description: spec.Description,
			Tags: serverTags(spec.Tags,
				unikorn.Tag{Name: InstanceIDTag, Value: id},
				unikorn.Tag{Name: AllocationIDTag, Value: allocation.Metadata.ID}),
		},
		Spec: unikorn.ServerCreateSpec{
			ServerSpec: unikorn.ServerSpec{
				FlavorID:   spec.FlavorID,
				ImageID:    spec.ImageID,
				Networking: serverNetworking(spec),
				UserData:   encodeUserData(spec.UserData),
			},
			NetworkID:                 network.Metadata.ID,
			SSHCertificateAuthorityID: spec.SSHCertificateAuthorityID,
		},
	})
	if err == nil {
		instance := instanceFromServer(server)
		instance.CreateAnswered = time.Now()

		return instance, nil
	}

	ref := Ref{ID: id, OrganizationID: organizationID, ProjectID: projectID, RegionID: network.Status.RegionID, NetworkID: network.Metadata.ID}

	// A refusal other than the name being taken may mean that the catalogue cache let
	// through a network, flavor or image that has changed since: whoever validates
	// next, in this run, asks the cloud again and gets a precise answer.
	if cloud.IsClientError(err) && !unikorn.IsConflict(err) {
		s.references.forgetPlacement(network, spec)
	}

	// A create that got no clear refusal may have happened anyway; a create is never
	// repeated, but it is looked for (past the read lag, see Get), and adopted when it
	// is ours. The quota is released only when the server is definitely not there.
	if !cloud.IsClientError(err) {
		var existing *Instance

		findErr := s.Persist(ctx, func(ctx context.Context) error {
			var err error
			existing, err = s.Get(ctx, ref)

			return err
		})

		switch {
		case findErr == nil && existing.AllocationID == allocation.Metadata.ID:
			return existing, nil
		case findErr != nil && !errors.Is(findErr, ErrNotFound):
			return nil, &CompensationError{
				Err:  fmt.Errorf("creating the server: %w", err),
				Undo: "keeping the quota allocation " + allocation.Metadata.ID + " until the server's fate is known", UndoErr: findErr,
			}
		}
	}

	if unikorn.IsConflict(err) {
		err = &NameTakenError{
			Name: spec.Name, NetworkID: network.Metadata.ID, InstanceID: id,
			OrganizationID: organizationID, ProjectID: projectID, Err: err,
		}
	} else {
		err = fmt.Errorf("creating the server: %w", err)
	}

	return nil, s.undo(ctx, err, "releasing the quota allocation "+allocation.Metadata.ID, func(ctx context.Context) error {
		return s.releaseAllocation(ctx, organizationID, projectID, allocation.Metadata.ID)
	})
}

// WaitReady waits until the instance is provisioned and running. It fails at once
// when the cloud reports provisioning as failed.
func (s *Service) WaitReady(ctx context.Context, instance *Instance) (*Instance, error) {
	return s.waitInstance(ctx, instance, "instance "+instance.ID+" to be provisioned and running", instance.change(changeReady),
		s.readServer, acceptedBy((*Instance).Ready))
}

// acceptedBy is a wait's acceptance by done, which fails the wait on nothing but what every wait
// fails on.
func acceptedBy(done func(*Instance) bool) func(*Instance) (bool, error) {
	return func(candidate *Instance) (bool, error) { return done(candidate), nil }
}

// instanceReader reads an instance afresh for a wait: nil, with no error, when a list
// does not show it (yet, or any more), or an absentError when a read of it alone
// answered 404; either alone proves nothing.
type instanceReader func(ctx context.Context, instance *Instance) (*Instance, error)

// absentError is the 404 of a wait's direct read of its instance, and when that read
// was sent: a lone reader's shared list (see newServerLists and
// ComputeInstances.listScope), or a read outside a scope (readServer). It is the
// first read of a confirmation (confirmGoneBy), made already.
type absentError struct {
	cloud.Miss
}

func (e *absentError) Error() string { return e.Err.Error() }

func (e *absentError) Unwrap() error { return e.Err }

// readAlone is a direct read of one object by ID whose 404 is an absentError, which
// keeps when the read was sent.
func readAlone[T any](ctx context.Context, id string, get func(context.Context, string) (T, error)) (T, error) {
	sent := time.Now()

	value, err := get(ctx, id)
	if unikorn.IsNotFound(err) {
		return value, &absentError{cloud.Miss{Err: err, Sent: sent}}
	}

	return value, err
}

// waitInstance polls read until done accepts the instance or fails the wait, learning how long c takes
// (the zero change: not learnt). An instance missing right after a write means the
// cloud's cache has not caught up yet, not that it is gone.
func (s *Service) waitInstance(ctx context.Context, instance *Instance, what string, c cloud.Change,
	read instanceReader, done func(*Instance) (bool, error),
) (*Instance, error) {
	var latest *Instance

	err := s.WaitForChange(ctx, what, c, func(ctx context.Context, _ bool) (bool, error) {
		candidate, err := read(ctx, instance)

		switch {
		case errors.As(err, new(*absentError)):
			return false, nil
		case err != nil:
			return false, cloud.ReadFailed(err)
		case candidate == nil:
			return false, nil
		}

		latest = candidate
		if latest.ProvisioningStatus == unikorn.ProvisioningError {
			return false, &ProvisioningFailedError{InstanceID: instance.ID, ServerID: instance.ServerID}
		}

		return done(latest)
	})
	if err != nil {
		return latest, err
	}

	return latest, nil
}

// readServer reads the instance's server afresh (an instanceReader). Within a known
// scope the read shares one list of the network's servers with the reads of every
// other instance there; otherwise it asks for the server itself.
func (s *Service) readServer(ctx context.Context, instance *Instance) (*Instance, error) {
	if sc, ok := scopeOf(instance.Ref()); ok {
		servers, err := s.servers.read(ctx, sc, instance.ID)
		if err != nil {
			return nil, err
		}

		for i := range servers {
			if servers[i].Metadata.ID == instance.ServerID {
				return instanceFromServer(&servers[i]), nil
			}
		}

		return nil, nil
	}

	server, err := readAlone(ctx, instance.ServerID, s.client.GetServer)
	if err != nil {
		return nil, err
	}

	return instanceFromServer(server), nil
}

// Get finds the instance by its tag. Exactly one server must carry it: none is
// ErrNotFound, several is a ConsistencyError naming them.
func (s *Service) Get(ctx context.Context, ref Ref) (*Instance, error) {
	servers, err := s.taggedServers(ctx, ref)
	if err != nil {
		return nil, err
	}

	switch len(servers) {
	case 0:
		return s.confirmGone(ctx, ref, s.UnseenSettled(), nil)
	case 1:
		return instanceFromServer(&servers[0]), nil
	default:
		ids := make([]string, len(servers))
		for i := range servers {
			ids[i] = servers[i].Metadata.ID
		}

		return nil, &ConsistencyError{InstanceID: ref.ID, ServerIDs: ids}
	}
}

// confirmGone checks a list that missed the instance against a direct read of its
// server (whose ID is the instance's), until settled (see confirmGoneBy). When the
// server is there after all, and is the instance's, it is returned.
func (s *Service) confirmGone(ctx context.Context, ref Ref, settled time.Time, answered *absentError) (*Instance, error) {
	return s.confirmGoneBy(ctx, ref, "its server "+ref.ID, settled, answered, func(ctx context.Context) (*Instance, error) {
		server, err := s.client.GetServer(ctx, ref.ID)
		if err != nil {
			return nil, err
		}

		// A server of that name that compute did not make is not the instance, and
		// one outside the scope asked about is not there.
		instance := instanceFromServer(server)
		if instance.ID != ref.ID || !instance.inScope(ref) {
			return nil, nil
		}

		return instance, nil
	})
}

// confirmGoneBy checks a list that missed the instance against a direct read of it
// (read answers nil for something there that is not the instance), because lists come
// from caches that can lag behind a create and silently leave out what the token may
// not read. The instance is gone only when that read keeps answering 404 until
// settled (see unseenSettled and seenSettled) while the instance's network is still
// readable; a 403 for either means the token lost access, which is an error. what
// names what read reads, for that error. answered, when not nil, is the 404 that such
// a read has just given (see absentError), taken for the first read's answer and
// judged by when that read was sent.
func (s *Service) confirmGoneBy(ctx context.Context, ref Ref, what string, settled time.Time, answered *absentError,
	read func(context.Context) (*Instance, error),
) (*Instance, error) {
	// The network is read beside the instance, not before it: the answer needs both,
	// and a wave of deletions confirms ten instances at once. They all share one read
	// of the network begun within the read lag: whether the token may still read it
	// changes on a scale of minutes (and a token that lost access is refused the
	// instance too), a read of the cloud's may itself be that old, and every deletion
	// of a destroy confirms this way.
	var (
		network    sync.WaitGroup
		networkErr error
	)

	if ref.NetworkID != "" {
		network.Go(func() { _, networkErr = s.references.network(ctx, ref.NetworkID, s.Now().Add(-s.ReadLag())) })
	}

	var found *Instance

	readInstance := func(ctx context.Context) error {
		var err error
		found, err = read(ctx)

		return err
	}

	var err error
	if answered != nil {
		err = s.PastReadLagAfter(ctx, settled, answered.Miss, readInstance)
	} else {
		err = s.PastReadLagUntil(ctx, settled, readInstance)
	}

	network.Wait()

	if networkErr != nil && !unikorn.IsNotFound(networkErr) {
		if unikorn.IsForbidden(networkErr) {
			return nil, &AccessError{InstanceID: ref.ID, What: "its network " + ref.NetworkID, Err: networkErr}
		}

		return nil, networkErr
	}

	switch {
	case err == nil && found != nil:
		return found, nil
	case err == nil, unikorn.IsNotFound(err):
		return nil, ErrNotFound
	case unikorn.IsForbidden(err):
		return nil, &AccessError{InstanceID: ref.ID, What: what, Err: err}
	default:
		return nil, err
	}
}

// taggedServers lists the servers that carry the instance tag of ref. A fully scoped
// reference (what state holds) shares one list of its network's servers with the
// reads of other instances there, and picks its own from it; read alone, or with a
// partial reference (an import by ID), it asks region to filter by the tag.
func (s *Service) taggedServers(ctx context.Context, ref Ref) ([]unikorn.Server, error) {
	if sc, ok := scopeOf(ref); ok {
		servers, err := s.servers.readRecent(ctx, sc, ref.ID)
		if err != nil {
			return nil, err
		}

		return taggedServers(servers, ref.ID), nil
	}

	return s.client.ListServers(ctx, serverQuery(ref))
}

func serverQuery(ref Ref) unikorn.ServerQuery {
	return unikorn.ServerQuery{
		Tags:            unikorn.Tags{{Name: InstanceIDTag, Value: ref.ID}},
		OrganizationIDs: cloud.Only(ref.OrganizationID),
		ProjectIDs:      cloud.Only(ref.ProjectID),
		RegionIDs:       cloud.Only(ref.RegionID),
		NetworkIDs:      cloud.Only(ref.NetworkID),
	}
}

// Update changes what can change in place: description, tags and networking. The
// quota moves first, so an organization over quota leaves everything as it was; when
// the server refuses the change the quota is moved back.
func (s *Service) Update(ctx context.Context, ref Ref, spec Spec) (*Instance, error) {
	ctx = unikorn.Concerning(ctx, ref.ID)

	current, err := readAndCheck(ctx, ref, spec, s.Get, s.ValidateUpdate)
	if err != nil {
		return nil, err
	}

	// Only the timeouts changed, say: there is nothing to ask of the cloud.
	if !needsUpdate(current, spec) {
		return current, nil
	}

	// The writes are seen through or undone even when Terraform is interrupted, each
	// bounded by the client's request timeout; only the wait that follows them stops.
	writes := context.WithoutCancel(ctx)

	restore, err := s.moveAllocation(writes, current, spec)
	if err != nil {
		return nil, err
	}

	revision := uuid.NewString()
	update := unikorn.ServerUpdate{
		Metadata: unikorn.WriteMetadata{
			Name:        current.Spec.Name,
			Description: spec.Description,
			Tags: serverTags(spec.Tags,
				unikorn.Tag{Name: InstanceIDTag, Value: current.ID},
				unikorn.Tag{Name: AllocationIDTag, Value: current.AllocationID},
				unikorn.Tag{Name: RevisionTag, Value: revision}),
		},
		Spec: unikorn.ServerSpec{
			FlavorID:   current.Spec.FlavorID,
			ImageID:    current.Spec.ImageID,
			Networking: serverNetworking(spec),
			UserData:   encodeUserData(current.Spec.UserData),
		},
	}

	// Region answers an update that lost its optimistic lock to the server's
	// controller with a 500, having written nothing; it loses it while region's cache
	// trails the controller's last write, which the read lag bounds. The update is a
	// PUT of the whole server, safe to send again, so a failure that is no refusal is
	// sent again until the read lag has passed; then whether it landed is read.
	var server *unikorn.Server

	s.settles(writes, func(ctx context.Context) bool {
		server, err = s.client.UpdateServer(ctx, current.ServerID, update)

		return err == nil || cloud.IsClientError(err)
	})

	var updated *Instance

	switch {
	case err == nil:
		updated = instanceFromServer(server)
	case !cloud.IsClientError(err) && s.landed(writes, current.Ref(), revision):
		// The answer was lost, not the update: wait for it as for any other.
		updated = current
	default:
		err = fmt.Errorf("updating the server: %w", err)
		if restore != nil {
			err = s.undo(writes, err, "restoring the quota allocation "+current.AllocationID, restore)
		}

		return nil, err
	}

	return s.waitInstance(ctx, updated, "the update of instance "+current.ID+" to take effect", current.change(changeUpdated), s.readServer,
		acceptedBy(func(candidate *Instance) bool {
			return candidate.revision == revision && candidate.realized()
		}))
}

// landed reads, past the read lag, whether the update that carries revision reached
// the server.
func (s *Service) landed(ctx context.Context, ref Ref, revision string) bool {
	return s.settles(ctx, func(ctx context.Context) bool {
		server, err := s.client.GetServer(ctx, ref.ID)
		if err != nil {
			return false
		}

		value, _ := server.Metadata.Tags.Get(RevisionTag)

		return value == revision
	})
}

// settles reads again while check does not hold, until the read lag has passed, and
// reports whether it came to hold: whether a write whose answer was lost took effect.
func (s *Service) settles(ctx context.Context, check func(context.Context) bool) bool {
	settled := time.Now().Add(s.ReadLag())

	for {
		began := time.Now()
		if check(ctx) {
			return true
		}

		if !cloud.Unsettled(began, settled) || cloud.Sleep(ctx, min(s.Poll().Max, time.Until(settled))) != nil {
			return false
		}
	}
}

// readAndCheck reads the instance an update starts from while it checks what spec
// refers to. Neither needs the other, and Terraform starts a provider process for
// every walk, so the first update of an apply finds neither read: one after the other
// they were two round trips before its write, not one. The read's error comes first,
// and stops the checks, whose answer no longer matters.
func readAndCheck(ctx context.Context, ref Ref, spec Spec,
	get func(context.Context, Ref) (*Instance, error), check func(context.Context, Spec) error,
) (*Instance, error) {
	checking, stop := context.WithCancel(ctx)
	defer stop()

	checked := make(chan error, 1)
	go func() { checked <- check(checking, spec) }()

	current, err := get(ctx, ref)
	if err != nil {
		stop()
	}

	if checkErr := <-checked; err == nil {
		err = checkErr
	}

	if err != nil {
		return nil, err
	}

	return current, nil
}

// needsUpdate reports whether spec changes anything an update can change.
func needsUpdate(current *Instance, spec Spec) bool {
	want := serverNetworking(spec)
	have := serverNetworking(current.Spec)

	return current.Spec.Description != spec.Description ||
		!maps.Equal(current.Spec.Tags, spec.Tags) ||
		!sameVolumes(current.Spec.VolumeIDs, spec.VolumeIDs) ||
		(want == nil) != (have == nil) ||
		want != nil && (want.PublicIP != have.PublicIP ||
			!slices.Equal(want.SecurityGroups, have.SecurityGroups) ||
			!slices.Equal(want.AllowedSourceAddresses, have.AllowedSourceAddresses))
}

// moveAllocation charges the quota for spec where it differs from current, and returns
// how to undo that (nil when nothing moved).
func (s *Service) moveAllocation(ctx context.Context, current *Instance, spec Spec) (func(context.Context) error, error) {
	if current.Spec.PublicIP == spec.PublicIP || current.AllocationID == "" {
		return nil, nil
	}

	var allocation *unikorn.Allocation

	// A recent charge may not be readable yet: a 404 is believed only past the read lag.
	err := s.PastReadLag(ctx, func(ctx context.Context) error {
		var err error
		allocation, err = s.client.GetAllocation(ctx, current.OrganizationID, current.ProjectID, current.AllocationID)

		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading the quota allocation: %w", err)
	}

	previous := unikorn.AllocationWrite{Metadata: allocation.Metadata.WriteMetadata, Spec: allocation.Spec}
	next := previous
	next.Spec.Allocations = withFloatingIPs(previous.Spec.Allocations, spec.PublicIP)

	restore := func(ctx context.Context) error {
		_, err := s.client.UpdateAllocation(ctx, current.OrganizationID, current.ProjectID, current.AllocationID, previous)

		return err
	}

	if _, err := s.client.UpdateAllocation(ctx, current.OrganizationID, current.ProjectID, current.AllocationID, next); err != nil {
		switch {
		case cloud.IsQuotaRefusal(err):
			return nil, &QuotaError{Err: err, Charged: true}
		case cloud.IsClientError(err):
			return nil, fmt.Errorf("updating the quota allocation: %w", err)
		default:
			// The change may have landed; putting back what was there is safe either way.
			return nil, s.undo(ctx, fmt.Errorf("updating the quota allocation: %w", err),
				"restoring the quota allocation "+current.AllocationID, restore)
		}
	}

	return restore, nil
}

// Delete removes the instance: the server first, then, once it is gone, the quota.
// A server that will not go away keeps its allocation. An instance whose server is
// already gone is deleted; its allocation is released when ref names it.
func (s *Service) Delete(ctx context.Context, ref Ref, knownAllocationID string) error {
	return s.delete(ctx, ref, knownAllocationID, time.Time{})
}

// delete is Delete, for an instance whose create this provider saw answered at
// answered (Instance.CreateAnswered), when it is not zero.
func (s *Service) delete(ctx context.Context, ref Ref, knownAllocationID string, answered time.Time) error {
	ctx = unikorn.Concerning(ctx, ref.ID)

	instance, err := s.Get(ctx, ref)

	switch {
	case errors.Is(err, ErrNotFound):
		if knownAllocationID == "" {
			return nil
		}

		return s.releaseAllocation(ctx, ref.OrganizationID, ref.ProjectID, knownAllocationID)
	case err != nil:
		return err
	}

	instance.CreateAnswered = answered

	// Sent even when Terraform is interrupted, as every write is (see Create).
	if err := s.client.DeleteServer(context.WithoutCancel(ctx), instance.ServerID); err != nil && !unikorn.IsNotFound(err) {
		return fmt.Errorf("deleting the server: %w", err)
	}

	if err := s.waitGone(ctx, instance, "server "+instance.ServerID+" of instance "+instance.ID, s.readServer, s.confirmGone); err != nil {
		return err
	}

	allocationID := instance.AllocationID
	if allocationID == "" {
		allocationID = knownAllocationID
	}

	if allocationID == "" {
		return nil
	}

	return s.releaseAllocation(ctx, instance.OrganizationID, instance.ProjectID, allocationID)
}

// waitGone waits after a delete until the instance, known from a read before the
// delete or from state, is definitely gone; quota is released on nothing less. what
// names what is being deleted.
//
// The poll ticks read the network's shared list (listed), one request per tick for
// every deletion there, which also keeps showing the instance for as long as a cache
// does. Only a direct read (confirmGone, settled by seenSettled) says gone, so a miss
// in the list is confirmed by one; and the reads where the deletion has been seen done
// before (the end of the pacer's span) are direct at once, so that a deletion seen at
// its learnt end costs one round trip, not a list and a read after it. The probes at
// the quarters of a span still wide read the shared list like the ticks: most see the
// deletion not done, and read directly each would cost every instance a request.
// A list that was the direct read of this instance alone (absentError) is the
// confirmation's first read, not a miss to read again.
func (s *Service) waitGone(ctx context.Context, instance *Instance, what string, listed instanceReader,
	confirmGone func(ctx context.Context, ref Ref, settled time.Time, answered *absentError) (*Instance, error),
) error {
	// Until the read lag has passed, a read may still show the instance as it was
	// before the delete, in error perhaps: only a later read's error is the delete's.
	settled := s.UnseenSettled()

	// The confirmation of the instance's 404 needs a read of its network begun within
	// the read lag (confirmGoneBy). Begun now, beside the deletion, that read is at
	// hand when the 404 comes, rather than a round trip after it; a deletion that
	// outlasts the read lag reads the network again. A wait that ends first does not
	// wait for it.
	if network := instance.Spec.NetworkID; network != "" {
		aheadCtx, cancel := context.WithCancel(ctx)

		var ahead sync.WaitGroup

		ahead.Go(func() { _, _ = s.references.network(aheadCtx, network, s.Now().Add(-s.ReadLag())) })

		defer func() {
			cancel()
			ahead.Wait()
		}()
	}

	return s.WaitForChange(ctx, what+" to be deleted", instance.change(changeGone), func(ctx context.Context, expectDone bool) (bool, error) {
		// Both reads below are sent after this moment (a shared list is one sent after
		// its readers joined).
		began := time.Now()

		var (
			found    *Instance
			err      error
			answered *absentError
		)

		if !expectDone {
			found, err = listed(ctx, instance)

			switch {
			case errors.As(err, &answered):
			case err != nil:
				return false, cloud.ReadFailed(err)
			}
		}

		if found == nil {
			found, err = confirmGone(ctx, instance.Ref(), s.SeenSettled(instance.creation()), answered)

			switch {
			case errors.Is(err, ErrNotFound):
				return true, nil
			case err != nil:
				return false, cloud.ReadFailed(err)
			}
		}

		if found.ProvisioningStatus == unikorn.ProvisioningError && !cloud.Unsettled(began, settled) {
			return false, fmt.Errorf("the cloud failed to delete %s: its provisioning status is error; "+
				"its quota is kept until it is gone", what)
		}

		return false, nil
	})
}

func (s *Service) releaseAllocation(ctx context.Context, organizationID, projectID, id string) error {
	if err := s.client.DeleteAllocation(context.WithoutCancel(ctx), organizationID, projectID, id); err != nil && !unikorn.IsNotFound(err) {
		return fmt.Errorf("releasing the quota allocation %s: %w", id, err)
	}

	return nil
}

// undo runs a compensating step for err and reports both when the step fails too.
func (s *Service) undo(ctx context.Context, err error, what string, step func(context.Context) error) error {
	if undoErr := s.Persist(ctx, step); undoErr != nil {
		return &CompensationError{Err: err, Undo: what, UndoErr: undoErr}
	}

	return err
}

func allocationFor(instanceID string, flavor *unikorn.Flavor, publicIP bool) unikorn.AllocationWrite {
	return unikorn.AllocationWrite{
		// Identity requires a name but gives it no meaning; compute sends this one.
		Metadata: unikorn.WriteMetadata{Name: "undefined"},
		Spec: unikorn.AllocationSpec{
			Kind: AllocationKind,
			ID:   instanceID,
			Allocations: withFloatingIPs([]unikorn.ResourceAllocation{
				{Kind: QuotaServers, Committed: 1},
				{Kind: QuotaGPUs, Committed: flavor.GPUCount()},
			}, publicIP),
		},
	}
}

// withFloatingIPs returns allocations with the floating IP line set for publicIP.
func withFloatingIPs(allocations []unikorn.ResourceAllocation, publicIP bool) []unikorn.ResourceAllocation {
	committed := 0
	if publicIP {
		committed = 1
	}

	result := make([]unikorn.ResourceAllocation, 0, len(allocations)+1)
	for _, allocation := range allocations {
		if allocation.Kind != QuotaFloatingIPs {
			result = append(result, allocation)
		}
	}

	return append(result, unikorn.ResourceAllocation{Kind: QuotaFloatingIPs, Committed: committed})
}
