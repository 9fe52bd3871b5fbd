// Package storage is the file storage family of the façade: region's file storage,
// the NFS shares that instances mount from the networks they are attached to, and
// the storage classes they are made of. It knows region v1.20.0's rules (what every
// update must carry, what an omitted member means, how a network's storage range is
// found), waits until a share is made and exported to every network asked for, and
// keeps track of what exists through lost answers and lagging reads; it knows
// nothing of Terraform.
package storage

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Selector is the look-ups' terms, shared by every family.
type Selector = cloud.Selector

// Snapshot intervals and storage protocols, as region names them.
const (
	Hourly  = unikorn.SnapshotHourly
	Daily   = unikorn.SnapshotDaily
	Weekly  = unikorn.SnapshotWeekly
	Monthly = unikorn.SnapshotMonthly

	NFSv3 = unikorn.StorageProtocolNFSv3
	NFSv4 = unikorn.StorageProtocolNFSv4
)

// Placement is where file storage lives and what it is made of: fixed at create.
type Placement struct {
	OrganizationID string
	ProjectID      string
	RegionID       string
	ClassID        string
}

// Desired is what may change of file storage in place. Region regenerates the whole
// spec from every update, resetting root squash and detaching every network that is
// not sent, so those are always sent; SnapshotPolicies and DefaultProtection are nil
// to keep what the storage has, which region does for them alone.
type Desired struct {
	Metadata          cloud.WriteMetadata
	SizeGiB           int64
	RootSquash        bool
	NetworkIDs        []string
	SnapshotPolicies  *[]SnapshotPolicy
	DefaultProtection *bool
}

// spec is Desired as region's `storageV2Spec`.
func (d Desired) spec() unikorn.FileStorageSpec {
	networkIDs := append([]string{}, d.NetworkIDs...)

	return unikorn.FileStorageSpec{
		SizeGiB:                          d.SizeGiB,
		StorageType:                      unikorn.StorageType{NFS: &unikorn.NFSStorage{RootSquash: d.RootSquash}},
		Attachments:                      &unikorn.StorageAttachments{NetworkIDs: networkIDs},
		DefaultSnapshotProtectionEnabled: d.DefaultProtection,
		SnapshotPolicies:                 policiesWire(d.SnapshotPolicies),
	}
}

// Objects is what the Terraform types use of the family: file storage's life, its
// look-ups, its classes, and the checks a plan makes before anything is sent.
type Objects interface {
	Read(ctx context.Context, id string) (*FileStorage, error)
	Create(ctx context.Context, placement Placement, desired Desired) (*FileStorage, error)
	Update(ctx context.Context, id string, desired Desired) (*FileStorage, error)
	Delete(ctx context.Context, id string, created time.Time) error
	List(ctx context.Context, organizationID, projectID, regionID string) ([]FileStorage, error)
	Find(ctx context.Context, selector Selector) (*FileStorage, error)
	Classes(ctx context.Context, regionID string) ([]Class, error)
	CheckAttachments(ctx context.Context, projectID string, networkIDs []string) ([]Problem, error)
	CheckClass(ctx context.Context, regionID, classID string) (*Problem, error)
}

var _ Objects = (*Service)(nil)

// Service manages file storage through region's public API, which every project user
// may call. It is safe for concurrent use.
type Service struct {
	session *cloud.Session
	client  *unikorn.Client
}

// NewService returns the file storage façade of a session.
func NewService(session *cloud.Session) *Service {
	return &Service{session: session, client: session.Client()}
}

// concerning names the file storage a write changes, so that the instances' shared
// reads know it changed none of theirs.
func concerning(ctx context.Context, id string) context.Context {
	return unikorn.Concerning(ctx, "filestorage/"+id)
}

func (s *Service) object() cloud.Object[unikorn.FileStorage] {
	return cloud.Object[unikorn.FileStorage]{
		Kind: "file storage",
		Get:  s.client.GetFileStorage,
		Del: func(ctx context.Context, id string) error {
			// Sent through even when Terraform is interrupted; only the wait stops.
			return s.client.DeleteFileStorage(context.WithoutCancel(concerning(ctx, id)), id)
		},
		Metadata: func(fs *unikorn.FileStorage) *unikorn.ReadMetadata { return &fs.Metadata.ReadMetadata },
	}
}

// Read returns the file storage with id, or nil when region definitely has none (see
// cloud.Object.Read).
func (s *Service) Read(ctx context.Context, id string) (*FileStorage, error) {
	return cloud.One(fromWire)(s.object().Read(ctx, s.session, id))
}

// Create makes file storage and waits until it is provisioned and exported to every
// network asked for. The create is sent once: an answer that is lost is resolved by
// finding the one new storage of the name in the project, never by sending it again.
// The storage is returned whenever it exists, even with an error, so that the caller
// keeps track of it.
func (s *Service) Create(ctx context.Context, placement Placement, desired Desired) (*FileStorage, error) {
	create := unikorn.FileStorageCreate{
		Metadata: desired.Metadata.Wire(),
		Spec: unikorn.FileStorageCreateSpec{
			FileStorageSpec: desired.spec(),
			OrganizationID:  placement.OrganizationID,
			ProjectID:       placement.ProjectID,
			RegionID:        placement.RegionID,
			StorageClassID:  placement.ClassID,
		},
	}

	list := func(ctx context.Context) ([]unikorn.FileStorage, error) {
		return s.client.ListFileStorage(ctx, unikorn.FileStorageQuery{
			OrganizationIDs: []string{placement.OrganizationID},
			ProjectIDs:      []string{placement.ProjectID},
			RegionIDs:       []string{placement.RegionID},
		})
	}

	post := func(ctx context.Context) (*unikorn.FileStorage, error) {
		// Sent through even when Terraform is interrupted, and never again.
		fs, err := s.client.CreateFileStorage(context.WithoutCancel(concerning(ctx, "new/"+desired.Metadata.Name)), create)
		if quotaRefused(err) {
			return nil, &QuotaError{SizeGiB: desired.SizeGiB, Err: err}
		}

		return fs, err
	}

	created, err := s.object().Post(ctx, s.session, desired.Metadata.Name, list, post)
	if err != nil {
		return nil, err
	}

	return s.settle(ctx, created.Metadata.ID, desired, fromWire(created))
}

// Update changes file storage in place and waits until a read shows the change made:
// the spec as sent, provisioned, exported to every network asked for and to no other,
// and, once the back end reports a capacity, resized. Region's update patches the
// version its cache holds, so while the cache trails the storage (whose status the
// back end keeps changing) the patch conflicts and region answers 500: the update,
// which carries the whole spec and is safe to repeat, is sent again until the read
// lag has passed. Should it still fail without a refusal, its answer may have been
// lost after it landed, which a read past the read lag tells.
func (s *Service) Update(ctx context.Context, id string, desired Desired) (*FileStorage, error) {
	writes := context.WithoutCancel(concerning(ctx, id))
	update := unikorn.FileStorageUpdate{Metadata: desired.Metadata.Wire(), Spec: desired.spec()}

	err := s.session.Resend(ctx, func(context.Context) error {
		_, err := s.client.UpdateFileStorage(writes, id, update)

		return err
	})

	switch {
	case err == nil:
	case quotaRefused(err):
		return nil, &QuotaError{ID: id, SizeGiB: desired.SizeGiB, Err: err}
	case cloud.IsClientError(err) || !s.session.Landed(writes, func(ctx context.Context) bool {
		fs, err := s.client.GetFileStorage(ctx, id)

		return err == nil && shows(fromWire(fs), desired)
	}):
		return nil, fmt.Errorf("updating file storage %s: %w", id, err)
	}

	return s.settle(ctx, id, desired, nil)
}

// settle waits until file storage is as desired (see Update). last is what is known
// of it so far, returned should the wait fail before any read. The storage was
// written just now, so a 404 says only that the cache has not seen it yet, until the
// read lag has passed; after that it is gone, deleted behind Terraform's back.
func (s *Service) settle(ctx context.Context, id string, desired Desired, last *FileStorage) (*FileStorage, error) {
	fs, visibleBy := last, s.session.UnseenSettled()

	err := s.session.WaitFor(ctx, "file storage "+id+" to be provisioned and exported", func(ctx context.Context) (bool, error) {
		began := time.Now()
		read, err := s.client.GetFileStorage(ctx, id)

		switch {
		case unikorn.IsNotFound(err) && cloud.Unsettled(began, visibleBy):
			return false, nil
		case err != nil:
			return false, cloud.ReadFailed(err)
		}

		fs = fromWire(read)

		switch read.Metadata.ProvisioningStatus {
		case unikorn.ProvisioningError:
			return false, &ProvisioningFailedError{StorageID: id}
		case unikorn.ProvisioningProvisioned:
			if !shows(fs, desired) {
				return false, nil
			}

			return mounted(fs, desired.NetworkIDs)
		}

		return false, nil
	})

	return fs, err
}

// shows reports whether a read shows what was written; a read from a lagging cache
// shows the storage as it was before.
func shows(fs *FileStorage, desired Desired) bool {
	if fs.Metadata.Name != desired.Metadata.Name || fs.Metadata.Description != desired.Metadata.Description ||
		!maps.Equal(cloud.TagMap(fs.Metadata.Tags), cloud.TagMap(desired.Metadata.Tags)) ||
		fs.SizeGiB != desired.SizeGiB || fs.RootSquash != desired.RootSquash ||
		!sameSet(fs.NetworkIDs, desired.NetworkIDs) {
		return false
	}

	if want := desired.DefaultProtection; want != nil && (fs.DefaultProtection == nil || *fs.DefaultProtection != *want) {
		return false
	}

	if want := desired.SnapshotPolicies; want != nil && !samePolicies(fs.SnapshotPolicies, *want) {
		return false
	}

	return true
}

// mounted reports whether file storage is exported to exactly the networks asked
// for: each has a mount source, and no other is still being removed. An export that
// failed ends the wait. A resize is done once the back end reports the new
// capacity, when it reports capacity at all.
func mounted(fs *FileStorage, networkIDs []string) (bool, error) {
	wanted := map[string]bool{}
	for _, id := range networkIDs {
		wanted[id] = true
	}

	for _, attachment := range fs.Attachments {
		switch {
		case !wanted[attachment.NetworkID]:
			return false, nil
		case attachment.ProvisioningStatus == unikorn.ProvisioningError:
			return false, &AttachmentFailedError{StorageID: fs.Metadata.ID, NetworkID: attachment.NetworkID}
		case attachment.MountSource == "":
			return false, nil
		}

		delete(wanted, attachment.NetworkID)
	}

	if len(wanted) > 0 {
		return false, nil
	}

	if usage := fs.Usage; usage != nil && usage.CapacityBytes != fs.SizeGiB<<30 {
		return false, nil
	}

	return true, nil
}

// Delete deletes file storage and waits until region definitely has none. Region
// checks nothing before deleting storage: networks it is exported to are released
// with it.
func (s *Service) Delete(ctx context.Context, id string, created time.Time) error {
	return s.object().Delete(ctx, s.session, id, created)
}

// List returns the file storage of a project, or of every project of the organization
// the token can see when projectID is empty, in one region when regionID is set.
func (s *Service) List(ctx context.Context, organizationID, projectID, regionID string) ([]FileStorage, error) {
	return cloud.All(fromWire)(s.list(ctx, organizationID, projectID, regionID))
}

func (s *Service) list(ctx context.Context, organizationID, projectID, regionID string) ([]unikorn.FileStorage, error) {
	return s.client.ListFileStorage(ctx, unikorn.FileStorageQuery{
		OrganizationIDs: []string{organizationID}, ProjectIDs: cloud.Only(projectID), RegionIDs: cloud.Only(regionID),
	})
}

// Find looks file storage up by ID, or by a name that exactly one storage of the
// project has.
func (s *Service) Find(ctx context.Context, selector Selector) (*FileStorage, error) {
	list := func(ctx context.Context) ([]unikorn.FileStorage, error) {
		return s.list(ctx, selector.OrganizationID, selector.ProjectID, "")
	}

	return cloud.One(fromWire)(s.object().Lookup(ctx, s.session, selector, list))
}

// Classes returns the storage classes the token may use, of one region or, when
// regionID is empty, of all.
func (s *Service) Classes(ctx context.Context, regionID string) ([]Class, error) {
	return cloud.All(classFromWire)(s.client.ListStorageClasses(ctx, cloud.Only(regionID)...))
}

func samePolicies(a, b []SnapshotPolicy) bool {
	byName := func(policies []SnapshotPolicy) map[string]string {
		out := map[string]string{}

		for _, p := range policies {
			day := ""
			if p.Schedule.DayOfMonth != nil {
				day = fmt.Sprint(*p.Schedule.DayOfMonth)
			}

			out[p.Name] = strings.Join([]string{p.Schedule.Interval, p.Schedule.TimeOfDay, p.Schedule.DayOfWeek, day, fmt.Sprint(p.Keep)}, "|")
		}

		return out
	}

	return maps.Equal(byName(a), byName(b))
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)

	return slices.Equal(slices.Compact(x), slices.Compact(y))
}
