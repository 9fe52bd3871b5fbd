package server

import (
	"bytes"
	"encoding/base64"
	"net/netip"
	"reflect"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func metadataOf(r *record) *unikorn.ProjectScopedMetadata {
	return &r.Server.Metadata
}

func (h *handlers) lookup(req *core.Request, operation string) (*record, error) {
	return core.Lookup(servers.Records(req.Store), req.PathValue("serverID"), req.Caller, metadataOf, rbacServers, operation)
}

func (h *handlers) list(req *core.Request) (*core.Reply, error) {
	q, err := core.ParseListQuery(req.Request, req.Caller)
	if err != nil {
		return nil, err
	}

	records := servers.Records(req.Store)
	if len(q.Tags()) > 0 {
		// A list by tag (an instance's server, say) looks at the servers that carry it.
		records = h.tagged(req, q.Tags()[0])
	}

	return core.OK(core.SelectList(q, req.Caller, rbacServers, records, func(r *record) (unikorn.Server, core.Listing) {
		status := r.Server.Status

		return r.Server, core.ProjectListing(&r.Server.Metadata, status.RegionID, status.NetworkID)
	})), nil
}

// specRequired is the required part of region `serverV2Spec`.
var specRequired = []string{"spec", "spec.flavorId", "spec.imageId"}

// validateSpecSyntax is the schema part of `serverV2Spec`, checked before any lookup.
func validateSpecSyntax(spec *unikorn.ServerSpec) error {
	if err := core.ValidateUUID("/spec/flavorId", spec.FlavorID); err != nil {
		return err
	}

	if err := core.ValidateUUID("/spec/imageId", spec.ImageID); err != nil {
		return err
	}

	if _, err := base64.StdEncoding.DecodeString(spec.UserData); err != nil {
		return core.BadRequest("request body has an error: doesn't match schema: Error at \"/spec/userData\": string is not base64 encoded")
	}

	if spec.Networking != nil {
		for _, address := range spec.Networking.AllowedSourceAddresses {
			if _, err := netip.ParsePrefix(address); err != nil {
				return core.BadRequest("allowed source address %q is not a CIDR", address)
			}
		}
	}

	return nil
}

// validateSpec checks what a server refers to, for a server on network that
// uses the SSH CA caID (may be empty).
func (h *handlers) validateSpec(req *core.Request, spec *unikorn.ServerSpec, network *unikorn.Network, caID, infrastructureRef string) error {
	flavor, ok := core.Get[unikorn.Flavor](req.Store, spec.FlavorID)
	if !ok {
		return core.BadRequest("flavor %s does not exist", spec.FlavorID)
	}

	// An organization's image lives in one region, the network's or another.
	_, place, ok := core.Find[unikorn.Image](req.Store, spec.ImageID)
	if place.RegionID != "" && place.RegionID != network.Status.RegionID {
		ok = false
	}

	owner := place.OrganizationID

	if !ok || (owner != "" && owner != network.Metadata.OrganizationID) {
		return core.BadRequest("image %s does not exist or is not available to the organization", spec.ImageID)
	}

	if spec.Networking != nil {
		for _, id := range spec.Networking.SecurityGroups {
			group, ok := core.Get[unikorn.SecurityGroup](req.Store, id)
			if !ok || group.Status.NetworkID != network.Metadata.ID {
				return core.Unprocessable("security group %s does not exist on network %s", id, network.Metadata.ID)
			}
		}
	}

	if caID != "" && spec.UserData != "" {
		// Decoding cannot fail: the syntax check ran first.
		userData, _ := base64.StdEncoding.DecodeString(spec.UserData)
		if !isCloudInit(userData) {
			return core.Unprocessable("user data is not in a recognised cloud-init format, which a server with an SSH certificate authority requires")
		}
	}

	if flavor.Spec.PinnedOnly && infrastructureRef == "" {
		return core.Unprocessable("flavor %s may only be used with an infrastructureRef", flavor.Metadata.ID)
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

// normalizeSpec drops an empty networking block, which the contract omits.
func normalizeSpec(spec unikorn.ServerSpec) unikorn.ServerSpec {
	if n := spec.Networking; n != nil && len(n.SecurityGroups) == 0 && !n.PublicIP && len(n.AllowedSourceAddresses) == 0 {
		spec.Networking = nil
	}

	return spec
}

func (h *handlers) create(req *core.Request) (*core.Reply, error) {
	var body unikorn.ServerCreate
	if err := core.DecodeBody(req.Request, &body, core.RequiredWith(append(specRequired, "spec.networkId")...)...); err != nil {
		return nil, err
	}

	spec := body.Spec

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := core.ValidateUUID("/spec/networkId", spec.NetworkID); err != nil {
		return nil, err
	}

	if err := validateSpecSyntax(&spec.ServerSpec); err != nil {
		return nil, err
	}

	network, err := core.LookupAs[unikorn.Network](req.Store, spec.NetworkID, req.Caller, rbacServers, core.OpCreate)
	if err != nil {
		return nil, err
	}

	if network.Metadata.DeletionTime != nil {
		return nil, core.BadRequest("network is being deleted")
	}

	if err := h.validateAuthority(req, spec.SSHCertificateAuthorityID, network); err != nil {
		return nil, err
	}

	if err := h.validateSpec(req, &spec.ServerSpec, network, spec.SSHCertificateAuthorityID, spec.InfrastructureRef); err != nil {
		return nil, err
	}

	id, err := unikorn.DeriveServerID(spec.NetworkID, body.Metadata.Name)
	if err != nil {
		return nil, core.BadRequest("%v", err)
	}

	if _, exists := servers.Records(req.Store)[id]; exists {
		return nil, core.Conflict()
	}

	metadata := network.Metadata

	r := &record{
		Server: unikorn.Server{
			Metadata: core.ProjectMetadata(id, body.Metadata, metadata.OrganizationID, metadata.ProjectID, req.Now),
			Spec:     normalizeSpec(spec.ServerSpec),
			Status: unikorn.ServerStatus{
				RegionID:                  network.Status.RegionID,
				NetworkID:                 spec.NetworkID,
				SSHCertificateAuthorityID: spec.SSHCertificateAuthorityID,
				InfrastructureRef:         spec.InfrastructureRef,
			},
		},
		Lifecycle: core.ProvisionSchedule(req.Now, h.s.ProvisionDelay()),
	}

	servers.Records(req.Store)[id] = r

	return core.Created(r.Server), nil
}

// validateAuthority requires a server's CA to belong to the network's
// organization and project.
func (h *handlers) validateAuthority(req *core.Request, id string, network *unikorn.Network) error {
	if id == "" {
		return nil
	}

	ca, ok := core.Get[unikorn.SSHCertificateAuthority](req.Store, id)
	if !ok {
		return core.Unprocessable("SSH certificate authority %s does not exist", id)
	}

	if ca.Metadata.OrganizationID != network.Metadata.OrganizationID || ca.Metadata.ProjectID != network.Metadata.ProjectID {
		return core.Unprocessable("SSH certificate authority %s must be in the same organization and project as the network", id)
	}

	return nil
}

func (h *handlers) get(req *core.Request) (*core.Reply, error) {
	r, err := h.lookup(req, core.OpRead)
	if err != nil {
		return nil, err
	}

	return core.OK(r.Server), nil
}

// update replaces a server's spec, description and tags. A new flavor or image
// recreates the cloud server, which loses its disk and addresses.
func (h *handlers) update(req *core.Request) (*core.Reply, error) {
	var body unikorn.ServerUpdate
	if err := core.DecodeBody(req.Request, &body, core.RequiredWith(specRequired...)...); err != nil {
		return nil, err
	}

	if err := core.ValidateWriteMetadata(body.Metadata); err != nil {
		return nil, err
	}

	if err := validateSpecSyntax(&body.Spec); err != nil {
		return nil, err
	}

	r, err := h.lookup(req, core.OpUpdate)
	if err != nil {
		return nil, err
	}

	server := &r.Server

	if server.Metadata.DeletionTime != nil {
		return nil, core.BadRequest("server is being deleted")
	}

	if body.Metadata.Name != server.Metadata.Name {
		return nil, core.Unprocessable("server names are immutable")
	}

	network, _ := core.Get[unikorn.Network](req.Store, server.Status.NetworkID)
	if err := h.validateSpec(req, &body.Spec, network, server.Status.SSHCertificateAuthorityID, server.Status.InfrastructureRef); err != nil {
		return nil, err
	}

	// A write that changes nothing does not move the object's generation on in
	// Kubernetes, so region does not provision the server again for it.
	if reflect.DeepEqual(server.Metadata.WriteMetadata, body.Metadata) && reflect.DeepEqual(server.Spec, normalizeSpec(body.Spec)) {
		return core.Accepted(r.Server), nil
	}

	if body.Spec.FlavorID != server.Spec.FlavorID || body.Spec.ImageID != server.Spec.ImageID {
		r.Rebuild = true
		r.Power = nil
	}

	core.RewriteMetadata(&server.Metadata.ReadMetadata, body.Metadata, req.Now)
	server.Spec = normalizeSpec(body.Spec)
	r.Lifecycle = core.ReprovisionSchedule(req.Now, h.s.ProvisionDelay())

	return core.Accepted(r.Server), nil
}

func (h *handlers) delete(req *core.Request) (*core.Reply, error) {
	r, err := h.lookup(req, core.OpDelete)
	if err != nil {
		return nil, err
	}

	if core.MarkDeleting(&r.Server.Metadata.ReadMetadata, &r.Lifecycle, req.Now, h.s.DeprovisionDelay()) {
		r.Power = nil
	}

	return core.Accepted(nil), nil
}

// serverTags indexes the servers as reads see them by each tag they carry, for as long
// as nothing changes what reads see: a write or a transition (generation), or a lag
// running out (caughtUp).
type serverTags struct {
	generation uint64
	servers    map[unikorn.Tag]map[string]*record
}

// tagged returns the servers, as the request sees them, that carry tag.
func (h *handlers) tagged(req *core.Request, tag unikorn.Tag) map[string]*record {
	index := h.tags
	if generation := h.s.Generation(); index == nil || index.generation != generation {
		index = &serverTags{generation: generation, servers: map[unikorn.Tag]map[string]*record{}}

		for id, r := range servers.Records(req.Store) {
			for _, carried := range r.Server.Metadata.Tags {
				if index.servers[carried] == nil {
					index.servers[carried] = map[string]*record{}
				}

				index.servers[carried][id] = r
			}
		}

		h.tags = index
	}

	return index.servers[tag]
}
