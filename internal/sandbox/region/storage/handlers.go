package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// File storage follows region v1.20.0 (pkg/handler/storage): a create validates,
// charges the size in bytes to the `filestorage` quota and stores the storage; an
// update regenerates the spec from the request and resizes the charge; a delete is
// finished by a finalizer that releases the charge. The rules themselves are in
// package storage. Region's handlers read the storage and the networks it is attached
// to through the controller's cache: a network the cache has not seen is not found
// (422), and not provisioned while the cache shows it pending; storage the cache has
// not seen is not found to an update or a delete; and an update's patch carries the
// version the cache showed, so while the cache trails the storage (its status changes
// as the back end reports) the patch conflicts, which region answers with a 500 after
// moving the quota charge back.

// fileStorageSpecRequired is the required part of region `storageV2Spec`.
var fileStorageSpecRequired = []string{
	"spec", "spec.sizeGiB", "spec.storageType", "spec.storageType.NFS?.rootSquash", "spec.attachments?.networkIds",
	"spec.snapshotPolicies[].name", "spec.snapshotPolicies[].schedule", "spec.snapshotPolicies[].schedule.interval",
	"spec.snapshotPolicies[].retention", "spec.snapshotPolicies[].retention.keep",
}

// notNull is a member the document declares without `nullable`: absent leaves it
// unset, and an explicit null is refused as the validator refuses it.
type notNull[T any] struct {
	value *T
}

func (n *notNull[T]) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return errors.New("value must not be null")
	}

	n.value = new(T)

	return json.Unmarshal(data, n.value)
}

// strictSpec shadows the spec members whose null region refuses; being shallower,
// they take those members from the embedded spec when decoding.
type strictSpec struct {
	DefaultSnapshotProtectionEnabled notNull[bool]                            `json:"defaultSnapshotProtectionEnabled"`
	SnapshotPolicies                 notNull[[]unikorn.StorageSnapshotPolicy] `json:"snapshotPolicies"`
	Attachments                      notNull[unikorn.StorageAttachments]      `json:"attachments"`
}

// specBody holds the spec one level down, where strictSpec shadows its members.
type specBody struct {
	unikorn.FileStorageSpec
}

func (s strictSpec) apply(spec *unikorn.FileStorageSpec) {
	spec.DefaultSnapshotProtectionEnabled = s.DefaultSnapshotProtectionEnabled.value
	spec.SnapshotPolicies = s.SnapshotPolicies.value
	spec.Attachments = s.Attachments.value
}

// storageViolation turns a broken rule of package storage into region's answer.
func storageViolation(err error) error {
	var violation *Violation
	if !errors.As(err, &violation) {
		return err
	}

	if violation.Schema {
		return core.BadRequest("%s", violation.Message)
	}

	return core.Unprocessable("%s", violation.Message)
}

func fileStorageMetadata(r *record) *unikorn.ProjectScopedMetadata {
	return &r.Metadata
}

func (h *handlers) list(req *core.Request) (*core.Reply, error) {
	q, err := core.ParseListQuery(req.Request, req.Caller)
	if err != nil {
		return nil, err
	}

	return core.OK(core.SelectList(q, req.Caller, rbacFileStorage, fileStorage.Records(req.Store), func(r *record) (unikorn.FileStorage, core.Listing) {
		return r.render(), core.ProjectListing(&r.Metadata, r.RegionID, "")
	})), nil
}

func (h *handlers) get(req *core.Request) (*core.Reply, error) {
	r, err := core.Lookup(fileStorage.Records(req.Store), req.PathValue("filestorageID"), req.Caller, fileStorageMetadata, rbacFileStorage, core.OpRead)
	if err != nil {
		return nil, err
	}

	return core.OK(r.render()), nil
}

func (h *handlers) create(req *core.Request) (*core.Reply, error) {
	var body struct {
		Metadata unikorn.WriteMetadata `json:"metadata"`
		Spec     struct {
			unikorn.FileStorageCreateSpec
			strictSpec
		} `json:"spec"`
	}

	required := core.RequiredWith(append(fileStorageSpecRequired, "spec.organizationId", "spec.projectId", "spec.regionId", "spec.storageClassId")...)
	if err := core.DecodeBody(req.Request, &body, required...); err != nil {
		return nil, err
	}

	spec := body.Spec.FileStorageCreateSpec
	body.Spec.apply(&spec.FileStorageSpec)

	if err := h.validateSchema(body.Metadata, spec.FileStorageSpec); err != nil {
		return nil, err
	}

	if err := core.ValidateUUID("/spec/regionId", spec.RegionID); err != nil {
		return nil, err
	}

	if err := core.RequireProject(req.Store, req.Caller, spec.OrganizationID, spec.ProjectID, rbacFileStorage, core.OpCreate); err != nil {
		return nil, err
	}

	// The create saga: validate, allocate, create.
	if err := storageViolation(ValidateCreateSize(spec.SizeGiB)); err != nil {
		return nil, err
	}

	if _, ok := core.Visible[unikorn.Region](req.Store, req.Caller, spec.RegionID); !ok {
		return nil, core.Unprocessable("region does not exist")
	}

	class, err := findClass(req.Caller, spec.StorageClassID)
	if err != nil {
		return nil, err
	}

	if class.class.Spec.RegionID != spec.RegionID {
		return nil, core.Unprocessable("storage class not available in region")
	}

	if err := h.validateAttachments(req, spec.Attachments, spec.ProjectID); err != nil {
		return nil, err
	}

	var policies []unikorn.StorageSnapshotPolicy
	if spec.SnapshotPolicies != nil {
		policies = *spec.SnapshotPolicies
	}

	if err := storageViolation(ValidatePolicies(policies)); err != nil {
		return nil, err
	}

	attachments, err := h.generateAttachments(req, spec.Attachments, class)
	if err != nil {
		return nil, err
	}

	r := &record{
		Metadata:          core.ProjectMetadata(core.NewResourceID(), body.Metadata, spec.OrganizationID, spec.ProjectID, req.Now),
		RegionID:          spec.RegionID,
		StorageClassID:    spec.StorageClassID,
		SizeGiB:           spec.SizeGiB,
		RootSquash:        RootSquash(spec.StorageType),
		DefaultProtection: DefaultProtection(spec.DefaultSnapshotProtectionEnabled, true),
		Lifecycle:         core.ProvisionSchedule(req.Now, h.s.ProvisionDelay()),
	}

	r.setAttachments(attachments, req.Now, h.s.ProvisionDelay())
	r.setPolicies(policies, req.Now, h.s.ProvisionDelay())

	allocation, err := core.Allocate(req.Store, spec.OrganizationID, spec.ProjectID, fileStorageAllocation(r), req.Now)
	if err != nil {
		return nil, err
	}

	r.AllocationID = allocation.Metadata.ID
	fileStorage.Records(req.Store)[r.Metadata.ID] = r

	return core.Created(r.render()), nil
}

// validateSchema is what region's validator checks of a spec before any
// handler runs.
func (h *handlers) validateSchema(metadata unikorn.WriteMetadata, spec unikorn.FileStorageSpec) error {
	if err := core.ValidateWriteMetadata(metadata); err != nil {
		return err
	}

	if spec.SnapshotPolicies != nil {
		return storageViolation(ValidatePolicySchema(*spec.SnapshotPolicies))
	}

	return nil
}

// fileStorageAllocation is the quota charge of the storage: its size in bytes.
func fileStorageAllocation(r *record) unikorn.AllocationWrite {
	return core.Charge(AllocationKind, r.Metadata.ID,
		unikorn.ResourceAllocation{Kind: "filestorage", Committed: int(SizeBytes(r.SizeGiB))})
}

// validateAttachments checks the networks asked for as region does, each in turn:
// it must exist (a network of another organization is forbidden), be in the
// storage's project and be provisioned.
func (h *handlers) validateAttachments(req *core.Request, asked *unikorn.StorageAttachments, projectID string) error {
	if asked == nil {
		return nil
	}

	for _, id := range asked.NetworkIDs {
		if !core.IsUUID(id) {
			return core.Unprocessable("invalid network ID")
		}

		network, err := core.LookupAs[unikorn.Network](h.s.Cached(req), id, req.Caller, rbacNetworks, core.OpRead)
		if core.IsNotFound(err) {
			return core.Unprocessable("network not found")
		}

		if err != nil {
			return err
		}

		if network.Metadata.ProjectID != projectID {
			return core.Unprocessable("network not available in project")
		}

		if network.Metadata.ProvisioningStatus != unikorn.ProvisioningProvisioned {
			return core.Unprocessable("network not provisioned")
		}
	}

	return nil
}

// generateAttachments gives each network asked for, which validateAttachments let
// through, its share of the network's storage range: as many addresses as the
// class's parallelism. A network without a storage range cannot be attached. Nil
// attachments mean none.
func (h *handlers) generateAttachments(req *core.Request, asked *unikorn.StorageAttachments, class *storageClass) ([]attachmentState, error) {
	if asked == nil {
		return nil, nil
	}

	cached := h.s.Cached(req)
	attachments := make([]attachmentState, 0, len(asked.NetworkIDs))

	for _, id := range asked.NetworkIDs {
		network, _ := core.Get[unikorn.Network](cached, id)
		status := network.Status

		storageRange, ok := StorageRange(status.Prefix, status.Reservations)
		if !ok {
			return nil, core.Unprocessable("network requested does not have a storage range configured")
		}

		attachments = append(attachments, attachmentState{NetworkID: id, Range: storageRange.Narrow(class.class.Spec.Parallelism)})
	}

	return attachments, nil
}

// setAttachments makes the attachments asked for the record's: those it has keep what
// the back end observed of them, new ones wait to be observed, and those no longer
// asked for are detached, which the back end finishes later.
func (r *record) setAttachments(asked []attachmentState, now time.Time, delay time.Duration) {
	current := map[string]attachmentState{}
	for _, a := range r.Attachments {
		current[a.NetworkID] = a
	}

	var next, detaching []attachmentState

	for _, a := range asked {
		if have, ok := current[a.NetworkID]; ok && !have.Detaching {
			a.Status, a.Lifecycle = have.Status, have.Lifecycle
		} else {
			a.Lifecycle = attachSchedule(now, delay)
		}

		delete(current, a.NetworkID)
		next = append(next, a)
	}

	for _, a := range r.Attachments {
		if _, dropped := current[a.NetworkID]; !dropped {
			continue
		}

		if !a.Detaching {
			a.Detaching, a.Status = true, unikorn.ProvisioningDeprovisioning
			a.Lifecycle = core.Schedule{{To: core.ToGone, Due: now.Add(delay)}}
		}

		detaching = append(detaching, a)
	}

	r.Attachments = append(next, detaching...)
}

// setPolicies makes policies the record's: an unchanged policy keeps what the back
// end observed of it, a new or changed one waits to be observed again.
func (r *record) setPolicies(policies []unikorn.StorageSnapshotPolicy, now time.Time, delay time.Duration) {
	var next []policyState

	for _, policy := range policies {
		state := policyState{Policy: policy, Lifecycle: core.Schedule{{To: unikorn.ProvisioningProvisioned, Due: now.Add(delay)}}}

		for _, have := range r.Policies {
			if SamePolicy(have.Policy, policy) {
				state = have
			}
		}

		next = append(next, state)
	}

	r.Policies = next
}

func (h *handlers) update(req *core.Request) (*core.Reply, error) {
	var body struct {
		Metadata unikorn.WriteMetadata `json:"metadata"`
		Spec     struct {
			specBody
			strictSpec
		} `json:"spec"`
	}

	if err := core.DecodeBody(req.Request, &body, core.RequiredWith(fileStorageSpecRequired...)...); err != nil {
		return nil, err
	}

	spec := body.Spec.FileStorageSpec
	body.Spec.apply(&spec)

	if err := h.validateSchema(body.Metadata, spec); err != nil {
		return nil, err
	}

	id := req.PathValue("filestorageID")

	current, err := core.Lookup(fileStorage.Records(h.s.Cached(req)), id, req.Caller, fileStorageMetadata, rbacFileStorage, core.OpUpdate)
	if err != nil {
		return nil, err
	}

	if current.Metadata.DeletionTime != nil {
		return nil, core.BadRequest("filestorage is being deleted")
	}

	class, err := findClass(req.Caller, current.StorageClassID)
	if err != nil {
		return nil, err
	}

	// The update saga: validate, generate, resize the allocation, patch.
	if err := h.validateAttachments(req, spec.Attachments, current.Metadata.ProjectID); err != nil {
		return nil, err
	}

	if spec.SnapshotPolicies != nil {
		if err := storageViolation(ValidatePolicies(*spec.SnapshotPolicies)); err != nil {
			return nil, err
		}
	}

	attachments, err := h.generateAttachments(req, spec.Attachments, class)
	if err != nil {
		return nil, err
	}

	resized := *current
	resized.SizeGiB = spec.SizeGiB

	// The storage's quota charge moved to its new size: 403 when the organization's
	// quota does not hold it.
	allocation, err := core.Recharge(req.Store, resized.AllocationID, fileStorageAllocation(&resized), req.Now)
	if err != nil {
		return nil, err
	}

	if allocation == nil {
		return nil, core.ServerError()
	}

	// The patch carries the version the handler read: one the cache trails conflicts,
	// and the saga moves the allocation back, so nothing changes.
	r, ok := fileStorage.Records(req.Store)[id]
	if !ok || !core.SameVersion(current, r) {
		return nil, core.ServerError()
	}

	core.Allocations.Put(req.Store, allocation.Metadata.ID, allocation)

	policies := make([]unikorn.StorageSnapshotPolicy, 0, len(r.Policies))
	for _, p := range r.Policies {
		policies = append(policies, p.Policy)
	}

	core.RewriteMetadata(&r.Metadata.ReadMetadata, body.Metadata, req.Now)
	r.SizeGiB = spec.SizeGiB
	r.RootSquash = RootSquash(spec.StorageType)
	r.DefaultProtection = DefaultProtection(spec.DefaultSnapshotProtectionEnabled, r.DefaultProtection)
	r.setAttachments(attachments, req.Now, h.s.ProvisionDelay())
	r.setPolicies(ResolvePolicies(spec.SnapshotPolicies, policies), req.Now, h.s.ProvisionDelay())
	r.Lifecycle = core.ReprovisionSchedule(req.Now, h.s.ProvisionDelay())

	return core.Accepted(r.render()), nil
}

// delete starts deleting file storage, as the cache shows it; region checks
// no attachment.
func (h *handlers) delete(req *core.Request) (*core.Reply, error) {
	id := req.PathValue("filestorageID")

	cached, err := core.Lookup(fileStorage.Records(h.s.Cached(req)), id, req.Caller, fileStorageMetadata, rbacFileStorage, core.OpDelete)
	if err != nil {
		return nil, err
	}

	if cached.Metadata.DeletionTime != nil {
		return core.Accepted(nil), nil
	}

	r, ok := fileStorage.Records(req.Store)[id]
	if !ok {
		return nil, core.NotFound()
	}

	core.MarkDeleting(&r.Metadata.ReadMetadata, &r.Lifecycle, req.Now, h.s.DeprovisionDelay())

	return core.Accepted(nil), nil
}
