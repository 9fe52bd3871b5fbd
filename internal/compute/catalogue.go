package compute

import (
	"context"
	"sync"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// catalogue is what validation reads for every instance of a run alike: the network,
// its region's flavors and images, the security groups and the SSH certificate
// authority. It reads them through the session's shared reads, one request per
// provider process however many instances ask at once (see cloud.Shared); the
// network, groups and authorities through internal/networking, so that what that
// family writes, this one reads afresh. A list that lacks the item asked for is
// reloaded once before the item is called unknown, so a stale entry can delay nothing
// but can never reject a valid reference.
type catalogue struct {
	session    *cloud.Session
	client     *unikorn.Client
	networking *networking.Service
}

func newCatalogue(session *cloud.Session) *catalogue {
	return &catalogue{session: session, client: session.Client(), networking: networking.NewService(session)}
}

// forgetPlacement drops what the session keeps of what spec refers to on network:
// the cloud refused to create it, so whoever validates next asks the cloud again
// and gets a precise answer.
func (c *catalogue) forgetPlacement(network *unikorn.Network, spec Spec) {
	c.networking.Forget(network.Metadata.ID, spec.SecurityGroupIDs, spec.SSHCertificateAuthorityID)
	c.session.Forget(flavorsKey(network.Metadata.OrganizationID, network.Status.RegionID))
	c.forgetImages(network.Metadata.OrganizationID, network.Status.RegionID)
}

// forgetImages drops the images of a region kept for an organization, which this
// process has just changed.
func (c *catalogue) forgetImages(organizationID, regionID string) {
	c.session.Forget(imagesKey(organizationID, regionID))
}

// network returns the network, as a read that began at notBefore or later showed it.
func (c *catalogue) network(ctx context.Context, id string, notBefore time.Time) (*unikorn.Network, error) {
	return c.networking.SharedNetwork(ctx, id, notBefore)
}

func flavorsKey(organizationID, regionID string) string {
	return "flavors/" + organizationID + "/" + regionID
}

func imagesKey(organizationID, regionID string) string {
	return "images/" + organizationID + "/" + regionID
}

// flavor returns the flavor with the given ID, or nil when the region has none.
func (c *catalogue) flavor(ctx context.Context, organizationID, regionID, id string) (*unikorn.Flavor, error) {
	return findFresh(ctx, c.session, flavorsKey(organizationID, regionID), id,
		func(ctx context.Context) ([]unikorn.Flavor, error) {
			return c.client.ListFlavors(ctx, organizationID, regionID)
		},
		func(f *unikorn.Flavor) string { return f.Metadata.ID })
}

// startImages begins the shared read of the images of a region kept for an
// organization, which the check of an instance's image reads after its flavor, and
// returns what waits for it to end (see startReferences).
func (c *catalogue) startImages(ctx context.Context, organizationID, regionID string) (wait func()) {
	var read sync.WaitGroup

	read.Go(func() {
		_, _, _ = cloud.Shared(ctx, c.session, imagesKey(organizationID, regionID), time.Time{}, c.imagesOf(organizationID, regionID))
	})

	return read.Wait
}

// imagesOf is the read of the images of a region kept for an organization.
func (c *catalogue) imagesOf(organizationID, regionID string) func(context.Context) ([]unikorn.Image, error) {
	return func(ctx context.Context) ([]unikorn.Image, error) {
		return c.client.ListImages(ctx, organizationID, regionID)
	}
}

// image returns the image with the given ID, or nil when none is visible. Images that
// are not ready are missing from the list compute uses, so a miss asks for the image
// itself to tell "not ready" from "unknown".
func (c *catalogue) image(ctx context.Context, organizationID, regionID, id string) (*unikorn.Image, error) {
	image, err := findFresh(ctx, c.session, imagesKey(organizationID, regionID), id,
		c.imagesOf(organizationID, regionID), func(i *unikorn.Image) string { return i.Metadata.ID })
	if err != nil || image != nil {
		return image, err
	}

	image, err = c.client.GetImage(ctx, organizationID, regionID, id)
	if unikorn.IsNotFound(err) {
		return nil, nil
	}

	return image, err
}

// securityGroup returns the security group, or nil when the token cannot see it: a
// miss in what another caller read is read once more before it is believed.
func (c *catalogue) securityGroup(ctx context.Context, id string) (*unikorn.SecurityGroup, error) {
	return missReread(ctx, id, c.networking.SharedSecurityGroup, c.networking.FreshSecurityGroup)
}

// startReferences begins the shared reads of the security groups and the SSH
// certificate authority spec refers to, which need nothing of its network, and returns
// what waits for them to end: the checks that follow find them under way or done, so
// that the network and they take one round trip, not one each. The first instance a
// command checks finds nothing read yet (Terraform starts a provider process for every
// walk), and its reads went one after another: five round trips before the first
// update of a realistic tag change, on a cloud far away half a second. What they find
// is judged by the checks; a read that failed is not kept, and is asked again there.
func (c *catalogue) startReferences(ctx context.Context, spec Spec) (wait func()) {
	var reads sync.WaitGroup

	for _, id := range spec.SecurityGroupIDs {
		reads.Go(func() { _, _ = c.networking.SharedSecurityGroup(ctx, id) })
	}

	if id := spec.SSHCertificateAuthorityID; id != "" {
		reads.Go(func() { _, _ = c.networking.SharedSSHCertificateAuthority(ctx, id) })
	}

	return reads.Wait
}

// sshCertificateAuthority is securityGroup for an SSH certificate authority.
func (c *catalogue) sshCertificateAuthority(ctx context.Context, id string) (*unikorn.SSHCertificateAuthority, error) {
	return missReread(ctx, id, c.networking.SharedSSHCertificateAuthority, c.networking.FreshSSHCertificateAuthority)
}

// missReread returns what shared says of id, or nil when it is missing or hidden
// (404, 403). Such an answer may come from a read another caller began before this
// one asked, so it is only believed once read asks the cloud again itself.
func missReread[T any](ctx context.Context, id string,
	shared func(context.Context, string) (*T, error), read func(context.Context, string) (*T, error),
) (*T, error) {
	object, err := shared(ctx, id)
	if !unikorn.IsNotFound(err) && !unikorn.IsForbidden(err) {
		return object, err
	}

	object, err = read(ctx, id)
	if unikorn.IsForbidden(err) {
		return nil, nil
	}

	return object, err
}

// findFresh looks an item up in a shared list, reloading the list once on a miss.
func findFresh[T any](ctx context.Context, s *cloud.Session, key, id string, list func(context.Context) ([]T, error), idOf func(*T) string) (*T, error) {
	notBefore := time.Time{}

	for range 2 {
		items, began, err := cloud.Shared(ctx, s, key, notBefore, list)
		if err != nil {
			return nil, err
		}

		for i := range items {
			if idOf(&items[i]) == id {
				return &items[i], nil
			}
		}

		notBefore = began.Add(time.Nanosecond)
	}

	return nil, nil
}
