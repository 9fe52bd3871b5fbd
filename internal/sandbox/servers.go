package sandbox

import (
	"bytes"
	"encoding/base64"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"net/netip"
	"reflect"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func serverMetadata(record *serverRecord) *unikorn.ProjectScopedMetadata {
	return &record.Server.Metadata
}

func (s *Sandbox) lookupServer(req *core.Request, operation string) (*serverRecord, error) {
	return lookup(s.world.Servers, req.PathValue("serverID"), req.Caller, serverMetadata, rbacServers, operation)
}

func (s *Sandbox) listServers(req *core.Request) (*core.Reply, error) {
	q, err := parseListQuery(req.Request, req.Caller)
	if err != nil {
		return nil, err
	}

	records := s.world.Servers
	if len(q.Tags()) > 0 {
		// A list by tag (an instance's server, say) looks at the servers that carry it.
		records = s.serversTagged(q.Tags()[0])
	}

	return replyOK(selectList(q, req.Caller, records, func(record *serverRecord) (unikorn.Server, listing) {
		status := record.Server.Status

		return record.Server, projectListing(&record.Server.Metadata, status.RegionID, status.NetworkID)
	})), nil
}

// serverSpecRequired is the required part of region `serverV2Spec`.
var serverSpecRequired = []string{"spec", "spec.flavorId", "spec.imageId"}

// validateServerSpecSyntax is the schema part of `serverV2Spec`, checked before any lookup.
func validateServerSpecSyntax(spec *unikorn.ServerSpec) error {
	if err := validateUUID("/spec/flavorId", spec.FlavorID); err != nil {
		return err
	}

	if err := validateUUID("/spec/imageId", spec.ImageID); err != nil {
		return err
	}

	if _, err := base64.StdEncoding.DecodeString(spec.UserData); err != nil {
		return errBadRequest("request body has an error: doesn't match schema: Error at \"/spec/userData\": string is not base64 encoded")
	}

	if spec.Networking != nil {
		for _, address := range spec.Networking.AllowedSourceAddresses {
			if _, err := netip.ParsePrefix(address); err != nil {
				return errBadRequest("allowed source address %q is not a CIDR", address)
			}
		}
	}

	return nil
}

// validateServerSpec checks what a server refers to, for a server on network that
// uses the SSH CA caID (may be empty).
func (s *Sandbox) validateServerSpec(spec *unikorn.ServerSpec, network *unikorn.Network, caID, infrastructureRef string) error {
	flavor, ok := core.Get[unikorn.Flavor](s.world.st, spec.FlavorID)
	if !ok {
		return errBadRequest("flavor %s does not exist", spec.FlavorID)
	}

	// An organization's image lives in one region, the network's or another.
	_, place, ok := core.Find[unikorn.Image](s.world.st, spec.ImageID)
	if place.RegionID != "" && place.RegionID != network.Status.RegionID {
		ok = false
	}

	owner := place.OrganizationID

	if !ok || (owner != "" && owner != network.Metadata.OrganizationID) {
		return errBadRequest("image %s does not exist or is not available to the organization", spec.ImageID)
	}

	if spec.Networking != nil {
		for _, id := range spec.Networking.SecurityGroups {
			group, ok := core.Get[unikorn.SecurityGroup](s.world.st, id)
			if !ok || group.Status.NetworkID != network.Metadata.ID {
				return errUnprocessable("security group %s does not exist on network %s", id, network.Metadata.ID)
			}
		}
	}

	if caID != "" && spec.UserData != "" {
		// Decoding cannot fail: the syntax check ran first.
		userData, _ := base64.StdEncoding.DecodeString(spec.UserData)
		if !isCloudInit(userData) {
			return errUnprocessable("user data is not in a recognised cloud-init format, which a server with an SSH certificate authority requires")
		}
	}

	if flavor.Spec.PinnedOnly && infrastructureRef == "" {
		return errUnprocessable("flavor %s may only be used with an infrastructureRef", flavor.Metadata.ID)
	}

	return nil
}

// cloudInitPrefixes start every user data format cloud-init recognises.
var cloudInitPrefixes = [][]byte{
	[]byte("#cloud-config"),
	[]byte("#!"),
	[]byte("#include"),
	[]byte("#cloud-boothook"),
	[]byte("#part-handler"),
	[]byte("Content-Type: multipart"),
	{0x1f, 0x8b}, // gzip
}

func isCloudInit(userData []byte) bool {
	for _, prefix := range cloudInitPrefixes {
		if bytes.HasPrefix(userData, prefix) {
			return true
		}
	}

	return false
}

// normalizeServerSpec drops an empty networking block, which the contract omits.
func normalizeServerSpec(spec unikorn.ServerSpec) unikorn.ServerSpec {
	if n := spec.Networking; n != nil && len(n.SecurityGroups) == 0 && !n.PublicIP && len(n.AllowedSourceAddresses) == 0 {
		spec.Networking = nil
	}

	return spec
}

func (s *Sandbox) createServer(req *core.Request) (*core.Reply, error) {
	var body unikorn.ServerCreate
	if err := decodeBody(req.Request, &body, requiredWith(append(serverSpecRequired, "spec.networkId")...)...); err != nil {
		return nil, err
	}

	spec := body.Spec

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := validateUUID("/spec/networkId", spec.NetworkID); err != nil {
		return nil, err
	}

	if err := validateServerSpecSyntax(&spec.ServerSpec); err != nil {
		return nil, err
	}

	network, err := s.lookupNetwork(req, spec.NetworkID, rbacServers, opCreate)
	if err != nil {
		return nil, err
	}

	if network.Metadata.DeletionTime != nil {
		return nil, errBadRequest("network is being deleted")
	}

	if err := s.validateSSHCertificateAuthority(spec.SSHCertificateAuthorityID, network); err != nil {
		return nil, err
	}

	if err := s.validateServerSpec(&spec.ServerSpec, network, spec.SSHCertificateAuthorityID, spec.InfrastructureRef); err != nil {
		return nil, err
	}

	id, err := unikorn.DeriveServerID(spec.NetworkID, body.Metadata.Name)
	if err != nil {
		return nil, errBadRequest("%v", err)
	}

	if _, exists := s.world.Servers[id]; exists {
		return nil, errConflict()
	}

	metadata := network.Metadata

	record := &serverRecord{
		Server: unikorn.Server{
			Metadata: projectMetadata(id, body.Metadata, metadata.OrganizationID, metadata.ProjectID, req.Now),
			Spec:     normalizeServerSpec(spec.ServerSpec),
			Status: unikorn.ServerStatus{
				RegionID:                  network.Status.RegionID,
				NetworkID:                 spec.NetworkID,
				SSHCertificateAuthorityID: spec.SSHCertificateAuthorityID,
				InfrastructureRef:         spec.InfrastructureRef,
			},
		},
		Lifecycle: provisionSchedule(req.Now, s.core.ProvisionDelay()),
	}

	s.world.Servers[id] = record

	return replyCreated(record.Server), nil
}

// validateSSHCertificateAuthority requires a server's CA to belong to the network's
// organization and project.
func (s *Sandbox) validateSSHCertificateAuthority(id string, network *unikorn.Network) error {
	if id == "" {
		return nil
	}

	ca, ok := core.Get[unikorn.SSHCertificateAuthority](s.world.st, id)
	if !ok {
		return errUnprocessable("SSH certificate authority %s does not exist", id)
	}

	if ca.Metadata.OrganizationID != network.Metadata.OrganizationID || ca.Metadata.ProjectID != network.Metadata.ProjectID {
		return errUnprocessable("SSH certificate authority %s must be in the same organization and project as the network", id)
	}

	return nil
}

func (s *Sandbox) getServer(req *core.Request) (*core.Reply, error) {
	record, err := s.lookupServer(req, opRead)
	if err != nil {
		return nil, err
	}

	return replyOK(record.Server), nil
}

// updateServer replaces a server's spec, description and tags. A new flavor or image
// recreates the cloud server, which loses its disk and addresses.
func (s *Sandbox) updateServer(req *core.Request) (*core.Reply, error) {
	var body unikorn.ServerUpdate
	if err := decodeBody(req.Request, &body, requiredWith(serverSpecRequired...)...); err != nil {
		return nil, err
	}

	if err := validateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := validateServerSpecSyntax(&body.Spec); err != nil {
		return nil, err
	}

	record, err := s.lookupServer(req, opUpdate)
	if err != nil {
		return nil, err
	}

	server := &record.Server

	if server.Metadata.DeletionTime != nil {
		return nil, errBadRequest("server is being deleted")
	}

	if body.Metadata.Name != server.Metadata.Name {
		return nil, errUnprocessable("server names are immutable")
	}

	network, _ := core.Get[unikorn.Network](req.Store, server.Status.NetworkID)
	if err := s.validateServerSpec(&body.Spec, network, server.Status.SSHCertificateAuthorityID, server.Status.InfrastructureRef); err != nil {
		return nil, err
	}

	// A write that changes nothing does not move the object's generation on in
	// Kubernetes, so region does not provision the server again for it.
	if reflect.DeepEqual(server.Metadata.WriteMetadata, body.Metadata) && reflect.DeepEqual(server.Spec, normalizeServerSpec(body.Spec)) {
		return replyAccepted(record.Server), nil
	}

	if body.Spec.FlavorID != server.Spec.FlavorID || body.Spec.ImageID != server.Spec.ImageID {
		record.Rebuild = true
		record.Power = nil
	}

	rewriteMetadata(&server.Metadata.ReadMetadata, body.Metadata, req.Now)
	server.Spec = normalizeServerSpec(body.Spec)
	record.Lifecycle = reprovisionSchedule(req.Now, s.core.ProvisionDelay())

	return replyAccepted(record.Server), nil
}

func (s *Sandbox) deleteServer(req *core.Request) (*core.Reply, error) {
	record, err := s.lookupServer(req, opDelete)
	if err != nil {
		return nil, err
	}

	if markDeleting(&record.Server.Metadata.ReadMetadata, &record.Lifecycle, req.Now, s.core.DeprovisionDelay()) {
		record.Power = nil
	}

	return replyAccepted(nil), nil
}

// serverTags indexes the servers as reads see them by each tag they carry, for as long
// as nothing changes what reads see: a write or a transition (generation), or a lag
// running out (caughtUp).
type serverTags struct {
	generation uint64
	servers    map[unikorn.Tag]map[string]*serverRecord
}

// serversTagged returns the servers, as the request sees them, that carry tag.
// Callers hold mu.
func (s *Sandbox) serversTagged(tag unikorn.Tag) map[string]*serverRecord {
	index := s.serverTags
	if generation := s.core.Generation(); index == nil || index.generation != generation {
		index = &serverTags{generation: generation, servers: map[unikorn.Tag]map[string]*serverRecord{}}

		for id, record := range s.world.Servers {
			for _, carried := range record.Server.Metadata.Tags {
				if index.servers[carried] == nil {
					index.servers[carried] = map[string]*serverRecord{}
				}

				index.servers[carried][id] = record
			}
		}

		s.serverTags = index
	}

	return index.servers[tag]
}
