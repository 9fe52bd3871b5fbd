package networking

import (
	"context"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// InstanceHolders says which instances hold an object, for the searches of region's
// servers and compute's instances (Searches): networks, security groups and SSH
// certificate authorities here, images in internal/image.
type InstanceHolders struct {
	// Compute says that instances are compute's: region may not show the token
	// their servers, so compute's instances are looked for too.
	Compute bool
	// In is where to look: the object's organization and project (and network), or
	// an image's organization and region.
	In unikorn.ServerQuery
	// Instance and Server say whether an instance or a server holds the object.
	Instance func(*unikorn.InstanceSpec) bool
	Server   func(*unikorn.Server) bool
}

// Searches are the lists in which the instances that hold the object are looked for:
// compute's instances, when they are compute's, and region's servers, each named as
// the instance it realizes when it carries the instance tag (so that an instance both
// show is named once).
func (h InstanceHolders) Searches(client *unikorn.Client) []cloud.HolderSearch {
	var searches []cloud.HolderSearch

	if h.Compute {
		searches = append(searches, cloud.Search("compute's instances",
			func(ctx context.Context) ([]unikorn.Instance, error) {
				return client.ListInstances(ctx, unikorn.InstanceQuery(h.In))
			},
			func(instance *unikorn.Instance) (cloud.Holder, bool) {
				return cloud.HolderOf("instance", &instance.Metadata.ReadMetadata), h.Instance(&instance.Spec)
			}))
	}

	return append(searches, cloud.Search("region's servers",
		func(ctx context.Context) ([]unikorn.Server, error) { return client.ListServers(ctx, h.In) },
		func(server *unikorn.Server) (cloud.Holder, bool) { return serverHolder(server), h.Server(server) }))
}

// serverHolder names a server that holds an object: as the instance it realizes
// when it carries the instance tag (cloud.InstanceIDTag), and its server otherwise.
func serverHolder(server *unikorn.Server) cloud.Holder {
	holder := cloud.HolderOf("server", &server.Metadata.ReadMetadata)

	if instanceID, ok := server.Metadata.Tags.Get(cloud.InstanceIDTag); ok {
		holder.Kind, holder.ID = "instance", instanceID
	}

	return holder
}

// instancesHolding are the searches for the instances of the object's project (on
// its network, when it has one) that keep says hold it, by their networking and SSH
// certificate authority.
func (s *Service) instancesHolding(metadata *unikorn.ProjectScopedMetadata, networkID string,
	keep func(networking *unikorn.ServerNetworking, authorityID string) bool,
) []cloud.HolderSearch {
	return InstanceHolders{
		Compute: s.compute,
		In: unikorn.ServerQuery{
			OrganizationIDs: []string{metadata.OrganizationID}, ProjectIDs: []string{metadata.ProjectID},
			NetworkIDs: cloud.Only(networkID),
		},
		Instance: func(spec *unikorn.InstanceSpec) bool { return keep(spec.Networking, spec.SSHCertificateAuthorityID) },
		Server: func(server *unikorn.Server) bool {
			return keep(server.Spec.Networking, server.Status.SSHCertificateAuthorityID)
		},
	}.Searches(s.client)
}

// networkHolders are the searches for what keeps region from deleting a network: the
// instances on it, the file storage attached to it and the volumes made on it.
func (s *Service) networkHolders(network *unikorn.Network) []cloud.HolderSearch {
	all := func(*unikorn.ServerNetworking, string) bool { return true }
	searches := append(s.instancesHolding(&network.Metadata, network.Metadata.ID, all), cloud.Search("volumes",
		func(ctx context.Context) ([]unikorn.Volume, error) {
			volumes, err := s.client.ListVolumes(ctx, unikorn.VolumeQuery{
				OrganizationIDs: []string{network.Metadata.OrganizationID}, ProjectIDs: []string{network.Metadata.ProjectID},
				NetworkIDs: []string{network.Metadata.ID},
			})
			// A list is never missing but where region serves no volumes at all: a
			// region older than volumes has none to hold the network.
			if unikorn.IsNotFound(err) {
				return nil, nil
			}

			return volumes, err
		},
		func(volume *unikorn.Volume) (cloud.Holder, bool) {
			return cloud.HolderOf("volume", &volume.Metadata.ReadMetadata), volume.Spec.NetworkID == network.Metadata.ID
		}))

	return append(searches, cloud.Search("file storage",
		func(ctx context.Context) ([]unikorn.FileStorage, error) {
			return s.client.ListFileStorage(ctx, unikorn.FileStorageQuery{
				OrganizationIDs: []string{network.Metadata.OrganizationID}, ProjectIDs: []string{network.Metadata.ProjectID},
			})
		},
		func(share *unikorn.FileStorage) (cloud.Holder, bool) {
			return cloud.HolderOf("file storage", &share.Metadata.ReadMetadata), attached(share, network.Metadata.ID)
		}))
}

// attached reports whether file storage is, or still shows being, attached to the
// network: a detach ends when the status no longer lists the network.
func attached(share *unikorn.FileStorage, networkID string) bool {
	if share.Spec.Attachments != nil && slices.Contains(share.Spec.Attachments.NetworkIDs, networkID) {
		return true
	}

	return slices.ContainsFunc(share.Status.Attachments, func(a unikorn.StorageAttachmentStatus) bool { return a.NetworkID == networkID })
}

// securityGroupHolders are the searches for the instances in a security group.
func (s *Service) securityGroupHolders(group *unikorn.SecurityGroup) []cloud.HolderSearch {
	return s.instancesHolding(&group.Metadata, group.Status.NetworkID, func(networking *unikorn.ServerNetworking, _ string) bool {
		return networking != nil && slices.Contains(networking.SecurityGroups, group.Metadata.ID)
	})
}

// sshCertificateAuthorityHolders are the searches for the instances that trust an SSH
// certificate authority.
func (s *Service) sshCertificateAuthorityHolders(authority *unikorn.SSHCertificateAuthority) []cloud.HolderSearch {
	return s.instancesHolding(&authority.Metadata, "", func(_ *unikorn.ServerNetworking, authorityID string) bool {
		return authorityID == authority.Metadata.ID
	})
}
