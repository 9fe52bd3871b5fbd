package compute

import (
	"context"
	"sync"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/catalogue"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// references is what validation reads for every instance of a run alike: the
// network, its region's flavors and images, the security groups and the SSH
// certificate authority. It reads them through the session's shared reads, one
// request per provider process however many instances ask at once (see
// cloud.Shared): the network, groups and authorities through internal/networking and
// the flavors and images through internal/catalogue, so that what those families
// write, this one reads afresh. A list that lacks the item asked for is reloaded once
// before the item is called unknown, so a stale entry can delay nothing but can never
// reject a valid reference.
type references struct {
	networking *networking.Service
	catalogue  *catalogue.Service
}

func newReferences(session *cloud.Session) *references {
	return &references{networking: networking.NewService(session), catalogue: catalogue.NewService(session)}
}

// forgetPlacement drops what the session keeps of what spec refers to on network:
// the cloud refused to create it, so whoever validates next asks the cloud again
// and gets a precise answer.
func (r *references) forgetPlacement(network *unikorn.Network, spec Spec) {
	r.networking.Forget(network.Metadata.ID, spec.SecurityGroupIDs, spec.SSHCertificateAuthorityID)
	r.catalogue.ForgetFlavors(network.Metadata.OrganizationID, network.Status.RegionID)
	r.catalogue.ForgetImages(network.Metadata.OrganizationID, network.Status.RegionID)
}

// network returns the network, as a read that began at notBefore or later showed it.
func (r *references) network(ctx context.Context, id string, notBefore time.Time) (*unikorn.Network, error) {
	return r.networking.SharedNetwork(ctx, id, notBefore)
}

// securityGroup returns the security group, or nil when the token cannot see it: a
// miss in what another caller read is read once more before it is believed.
func (r *references) securityGroup(ctx context.Context, id string) (*unikorn.SecurityGroup, error) {
	return missReread(ctx, id, r.networking.SharedSecurityGroup, r.networking.FreshSecurityGroup)
}

// startReferences begins the shared reads of the security groups and the SSH
// certificate authority spec refers to, which need nothing of its network, and returns
// what waits for them to end: the checks that follow find them under way or done, so
// that the network and they take one round trip, not one each. The first instance a
// command checks finds nothing read yet (Terraform starts a provider process for every
// walk), and its reads went one after another: five round trips before the first
// update of a realistic tag change, on a cloud far away half a second. What they find
// is judged by the checks; a read that failed is not kept, and is asked again there.
func (r *references) startReferences(ctx context.Context, spec Spec) (wait func()) {
	var reads sync.WaitGroup

	for _, id := range spec.SecurityGroupIDs {
		reads.Go(func() { _, _ = r.networking.SharedSecurityGroup(ctx, id) })
	}

	if id := spec.SSHCertificateAuthorityID; id != "" {
		reads.Go(func() { _, _ = r.networking.SharedSSHCertificateAuthority(ctx, id) })
	}

	return reads.Wait
}

// sshCertificateAuthority is securityGroup for an SSH certificate authority.
func (r *references) sshCertificateAuthority(ctx context.Context, id string) (*unikorn.SSHCertificateAuthority, error) {
	return missReread(ctx, id, r.networking.SharedSSHCertificateAuthority, r.networking.FreshSSHCertificateAuthority)
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
