// Package volumes is the block volume family of the façade: region's volumes, which
// outlive the instances they are attached to, and their classes. It knows region's
// rules for them (a volume's network, class and size are fixed at create; a class
// bounds the size and names the flavors that may attach it; an attached volume cannot
// be deleted), waits until a volume is provisioned, finds what an attached volume is
// attached to, keeps track of what exists through lost answers and lagging reads,
// and checks for compute's instances what compute would refuse of an attachment. It
// knows nothing of Terraform.
package volumes

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Selector is the look-ups' terms, shared by every family.
type Selector = cloud.Selector

// Volume class media, as region names them.
const (
	HDD  = unikorn.VolumeMediaHDD
	SSD  = unikorn.VolumeMediaSSD
	NVMe = unikorn.VolumeMediaNVMe
)

// Scope narrows a list of volumes; an empty field narrows nothing.
type Scope struct {
	OrganizationID string
	ProjectID      string
	RegionID       string
	NetworkID      string
}

// Objects is what the Terraform types use of the family: a volume's life, its
// look-ups, the classes, and the checks a plan makes before anything is sent.
type Objects interface {
	Read(ctx context.Context, id string) (*Volume, error)
	Create(ctx context.Context, create Create) (*Volume, error)
	Update(ctx context.Context, id string, metadata cloud.WriteMetadata) (*Volume, error)
	Delete(ctx context.Context, id string, created time.Time) error
	List(ctx context.Context, scope Scope) ([]Volume, error)
	Find(ctx context.Context, selector Selector) (*Volume, error)
	Classes(ctx context.Context, regionID string) ([]Class, error)
	CheckClass(ctx context.Context, networkID, classID string, sizeGiB int64) (*Problem, error)
}

var _ Objects = (*Service)(nil)

// Service manages volumes through region's public API, which every project user may
// call. It is safe for concurrent use.
type Service struct {
	session    *cloud.Session
	client     *unikorn.Client
	networking *networking.Service
	// compute says that instances are compute's: what holds a volume is looked for
	// among compute's instances, the only ones that attach volumes.
	compute bool
}

// NewService returns the volume façade of a session.
func NewService(session *cloud.Session) *Service {
	return &Service{session: session, client: session.Client(), networking: networking.NewService(session)}
}

// HeldByComputeInstances makes the look for what holds a volume ask compute's
// instances, for a provider whose instances are compute's (see cloud.HeldError), as
// networking.Service.HeldByComputeInstances does for networks.
func (s *Service) HeldByComputeInstances() *Service {
	s.compute = true

	return s
}

// concerning names the volume a write changes, so that the instances' shared reads
// know it changed none of theirs.
func concerning(ctx context.Context, id string) context.Context {
	return unikorn.Concerning(ctx, "volume/"+id)
}

func (s *Service) object() cloud.Object[unikorn.Volume] {
	return cloud.Object[unikorn.Volume]{
		Kind: "volume", Users: "the instance it is attached to", InUse: cloud.InUseEither,
		Get: s.client.GetVolume,
		Del: func(ctx context.Context, id string) error {
			// Sent through even when Terraform is interrupted; only the wait stops.
			return s.client.DeleteVolume(context.WithoutCancel(concerning(ctx, id)), id)
		},
		HeldBy:   s.heldBy,
		Free:     func(v *unikorn.Volume) bool { return v.Status.AttachedAt == nil },
		Metadata: func(v *unikorn.Volume) *unikorn.ReadMetadata { return &v.Metadata.ReadMetadata },
	}
}

// Read returns the volume with id, or nil when region definitely has none (see
// cloud.Object.Read).
func (s *Service) Read(ctx context.Context, id string) (*Volume, error) {
	return cloud.One(fromWire)(s.object().Read(ctx, s.session, id))
}

// Create checks what region would refuse of the volume's class and size, makes the
// volume and waits until it is provisioned. The create is sent once: an answer that
// is lost is resolved by finding the one new volume of the name on the network, never
// by sending it again. The volume is returned whenever it exists, even with an error,
// so that the caller keeps track of it.
func (s *Service) Create(ctx context.Context, create Create) (*Volume, error) {
	// A plan could not check a network made in the same apply; nothing is sent for
	// a class region would refuse.
	problem, err := s.CheckClass(ctx, create.NetworkID, create.ClassID, create.SizeGiB)

	switch {
	case err != nil:
		return nil, err
	case problem != nil:
		return nil, problem
	}

	list := func(ctx context.Context) ([]unikorn.Volume, error) {
		return s.client.ListVolumes(ctx, unikorn.VolumeQuery{NetworkIDs: []string{create.NetworkID}})
	}

	post := func(ctx context.Context) (*unikorn.Volume, error) {
		// Sent through even when Terraform is interrupted, and never again.
		volume, err := s.client.CreateVolume(context.WithoutCancel(concerning(ctx, "new/"+create.Metadata.Name)), create.wire())
		if cloud.IsQuotaRefusal(err) {
			return nil, &QuotaError{SizeGiB: create.SizeGiB, Err: err}
		}

		return volume, err
	}

	return cloud.One(fromWire)(s.object().Create(ctx, s.session, create.Metadata.Name, list, post))
}

// Update replaces the volume's name, description and tags, the only things region
// changes in place, and waits until a read shows them. Region patches the version its
// cache holds under an optimistic lock, so a 409 is no refusal: the update, which
// carries all the metadata and is safe to repeat, is sent again until region takes
// it, as it is after a failure that is no answer.
func (s *Service) Update(ctx context.Context, id string, metadata cloud.WriteMetadata) (*Volume, error) {
	writes := context.WithoutCancel(concerning(ctx, id))
	missing := s.session.UnseenSettled()

	send := func(ctx context.Context) (bool, error) {
		began := time.Now()

		_, err := s.client.UpdateVolume(writes, id, unikorn.VolumeUpdate{Metadata: metadata.Wire()})

		switch {
		case err == nil:
			return true, nil
		case unikorn.IsConflict(err), unikorn.IsNotFound(err) && cloud.Unsettled(began, missing):
			return false, nil
		}

		return false, cloud.ReadFailed(err)
	}

	if err := s.session.WaitForNow(ctx, "volume "+id+" to take the update", send); err != nil {
		return nil, fmt.Errorf("updating volume %s: %w", id, err)
	}

	shows := func(v *unikorn.Volume) (bool, error) {
		return v.Metadata.Name == metadata.Name && v.Metadata.Description == metadata.Description &&
			maps.Equal(cloud.TagMap(cloud.TagsFromWire(v.Metadata.Tags)), cloud.TagMap(metadata.Tags)), nil
	}

	return cloud.One(fromWire)(s.object().WaitUntil(ctx, s.session, id, "updated", shows))
}

// Delete deletes the volume and waits until region definitely has none. Region
// refuses while a server holds the volume: the delete is asked again while what holds
// it is letting it go, and otherwise ends with a *cloud.HeldError naming it.
func (s *Service) Delete(ctx context.Context, id string, created time.Time) error {
	return s.object().Delete(ctx, s.session, id, created)
}

// List returns the volumes of a scope the token can see, by name and then ID.
func (s *Service) List(ctx context.Context, scope Scope) ([]Volume, error) {
	return cloud.All(fromWire)(s.list(ctx, scope))
}

func (s *Service) list(ctx context.Context, scope Scope) ([]unikorn.Volume, error) {
	return s.client.ListVolumes(ctx, unikorn.VolumeQuery{
		OrganizationIDs: cloud.Only(scope.OrganizationID), ProjectIDs: cloud.Only(scope.ProjectID),
		RegionIDs: cloud.Only(scope.RegionID), NetworkIDs: cloud.Only(scope.NetworkID),
	})
}

// Find looks a volume up by ID, or by a name that exactly one volume of the project
// (of the network, when the selector names one) has.
func (s *Service) Find(ctx context.Context, selector Selector) (*Volume, error) {
	list := func(ctx context.Context) ([]unikorn.Volume, error) {
		return s.list(ctx, Scope{OrganizationID: selector.OrganizationID, ProjectID: selector.ProjectID, NetworkID: selector.NetworkID})
	}

	return cloud.One(fromWire)(s.object().Lookup(ctx, s.session, selector, list))
}

// Classes returns the volume classes of one region or, when regionID is empty, of
// every region the token sees.
func (s *Service) Classes(ctx context.Context, regionID string) ([]Class, error) {
	return cloud.All(classFromWire)(s.client.ListVolumeClasses(ctx, cloud.Only(regionID)...))
}
