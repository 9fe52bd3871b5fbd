package networking

import (
	"context"
	"slices"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// serverHolder names a server that holds an object: as the instance it realizes
// when it carries the instance tag (cloud.InstanceIDTag), and its server otherwise.
func serverHolder(server *unikorn.Server) cloud.Holder {
	holder := cloud.HolderOf("server", &server.Metadata.ReadMetadata)

	if instanceID, ok := server.Metadata.Tags.Get(cloud.InstanceIDTag); ok {
		holder.Kind, holder.ID = "instance", instanceID
	}

	return holder
}

// serversHolding lists the servers of the object's project (on its network, when it
// has one) whose spec and status keep is true of, and compute's instances too when
// they are compute's.
func (s *Service) serversHolding(ctx context.Context, metadata *unikorn.ProjectScopedMetadata, networkID string,
	keep func(*unikorn.ServerNetworking, string) bool,
) ([]cloud.Holder, error) {
	var holders []cloud.Holder

	if s.compute {
		instances, err := s.client.ListInstances(ctx, unikorn.InstanceQuery{
			OrganizationIDs: []string{metadata.OrganizationID}, ProjectIDs: []string{metadata.ProjectID},
			NetworkIDs: cloud.Only(networkID),
		})
		if err != nil {
			return nil, err
		}

		for i := range instances {
			if keep(instances[i].Spec.Networking, instances[i].Spec.SSHCertificateAuthorityID) {
				holders = append(holders, cloud.HolderOf("instance", &instances[i].Metadata.ReadMetadata))
			}
		}
	}

	servers, err := s.client.ListServers(ctx, unikorn.ServerQuery{
		OrganizationIDs: []string{metadata.OrganizationID}, ProjectIDs: []string{metadata.ProjectID},
		NetworkIDs: cloud.Only(networkID),
	})
	if err != nil {
		return holders, err
	}

	for i := range servers {
		holder := serverHolder(&servers[i])

		// A compute instance's server, when region shows it too, is named once.
		if keep(servers[i].Spec.Networking, servers[i].Status.SSHCertificateAuthorityID) &&
			!slices.ContainsFunc(holders, func(h cloud.Holder) bool { return h.ID == holder.ID }) {
			holders = append(holders, holder)
		}
	}

	return holders, nil
}

// networkHolders names the servers on a network and the file storage attached to it,
// which keep region from deleting it.
func (s *Service) networkHolders(ctx context.Context, network *unikorn.Network) ([]cloud.Holder, error) {
	holders, err := s.serversHolding(ctx, &network.Metadata, network.Metadata.ID, func(*unikorn.ServerNetworking, string) bool { return true })
	if err != nil {
		return nil, err
	}

	shares, err := s.client.ListFileStorage(ctx, unikorn.FileStorageQuery{
		OrganizationIDs: []string{network.Metadata.OrganizationID}, ProjectIDs: []string{network.Metadata.ProjectID},
	})
	if err != nil {
		return holders, err
	}

	for i := range shares {
		if attached(&shares[i], network.Metadata.ID) {
			holders = append(holders, cloud.HolderOf("file storage", &shares[i].Metadata.ReadMetadata))
		}
	}

	return holders, nil
}

// attached reports whether file storage is, or still shows being, attached to the
// network: a detach ends when the status no longer lists the network.
func attached(share *unikorn.FileStorage, networkID string) bool {
	if share.Spec.Attachments != nil && slices.Contains(share.Spec.Attachments.NetworkIDs, networkID) {
		return true
	}

	return slices.ContainsFunc(share.Status.Attachments, func(a unikorn.StorageAttachmentStatus) bool { return a.NetworkID == networkID })
}

// securityGroupHolders names the servers in a security group.
func (s *Service) securityGroupHolders(ctx context.Context, group *unikorn.SecurityGroup) ([]cloud.Holder, error) {
	return s.serversHolding(ctx, &group.Metadata, group.Status.NetworkID, func(networking *unikorn.ServerNetworking, _ string) bool {
		return networking != nil && slices.Contains(networking.SecurityGroups, group.Metadata.ID)
	})
}

// sshCertificateAuthorityHolders names the servers that trust an SSH certificate
// authority.
func (s *Service) sshCertificateAuthorityHolders(ctx context.Context, authority *unikorn.SSHCertificateAuthority) ([]cloud.Holder, error) {
	return s.serversHolding(ctx, &authority.Metadata, "", func(_ *unikorn.ServerNetworking, authorityID string) bool {
		return authorityID == authority.Metadata.ID
	})
}
