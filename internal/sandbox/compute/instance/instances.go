package instance

import (
	"context"
	"encoding/base64"
	"net/http"
	"slices"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func (s *Service) registerRoutes() {
	s.handle("GET /api/version", s.version)
	s.handle("GET /api/v1/organizations/{organizationID}/regions", s.listRegions)
	s.handle("GET /api/v1/organizations/{organizationID}/regions/{regionID}/flavors", s.listFlavors)
	s.handle("GET /api/v1/organizations/{organizationID}/regions/{regionID}/images", s.listImages)

	s.handle("GET /api/v2/instances", s.listInstances)
	s.handle("POST /api/v2/instances", s.createInstance)
	s.handle("GET /api/v2/instances/{instanceID}", s.getInstance)
	s.handle("PUT /api/v2/instances/{instanceID}", s.updateInstance)
	s.handle("DELETE /api/v2/instances/{instanceID}", s.deleteInstance)
	s.handle("POST /api/v2/instances/{instanceID}/start", s.verb(startServer))
	s.handle("POST /api/v2/instances/{instanceID}/stop", s.verb(stopServer))
	s.handle("POST /api/v2/instances/{instanceID}/reboot", s.verb(rebootServer))
	s.handle("GET /api/v2/instances/{instanceID}/sshkey", s.verb(sshKey))
	s.handle("GET /api/v2/instances/{instanceID}/consolesession", s.verb(consoleSession))
	s.handle("GET /api/v2/instances/{instanceID}/consoleoutput", s.verb(consoleOutput))
	s.handle("POST /api/v2/instances/{instanceID}/snapshot", s.snapshot)
}

func (s *Service) version(*request) (int, any, error) {
	return http.StatusOK, unikorn.ServiceVersion{Name: "compute", Version: Version}, nil
}

// The catalogue proxies region's lists as the caller, so region's RBAC is the answer.
func (s *Service) listRegions(req *request) (int, any, error) {
	regions, err := req.user.ListRegions(req.Context(), req.PathValue("organizationID"))
	if err != nil {
		return 0, nil, err
	}

	return http.StatusOK, slices.DeleteFunc(regions, func(r unikorn.Region) bool { return r.Spec.Type == "kubernetes" }), nil
}

func (s *Service) listFlavors(req *request) (int, any, error) {
	flavors, err := req.user.ListFlavors(req.Context(), req.PathValue("organizationID"), req.PathValue("regionID"))

	return http.StatusOK, flavors, err
}

// listImages is compute's curated list: images built for a software stack (Kubernetes,
// say) are not offered for plain instances.
func (s *Service) listImages(req *request) (int, any, error) {
	images, err := req.user.ListImages(req.Context(), req.PathValue("organizationID"), req.PathValue("regionID"))
	if err != nil {
		return 0, nil, err
	}

	return http.StatusOK, slices.DeleteFunc(images, func(i unikorn.Image) bool { return len(i.Spec.SoftwareVersions) > 0 }), nil
}

func (s *Service) listInstances(req *request) (int, any, error) {
	query := req.URL.Query()
	tags := query["tag"]
	readable := map[string]bool{}
	out := []unikorn.Instance{}

	for _, id := range s.sortedIDs() {
		in := s.instances[id].Instance
		md := in.Metadata

		if !matches(query["organizationID"], md.OrganizationID) || !matches(query["projectID"], md.ProjectID) ||
			!matches(query["regionID"], in.Status.RegionID) || !matches(query["networkID"], in.Status.NetworkID) || !hasTags(md.Tags, tags) {
			continue
		}

		// Lists drop what the caller may not read, as region's do.
		key := md.OrganizationID + "/" + md.ProjectID
		if _, ok := readable[key]; !ok {
			_, err := req.user.GetProject(req.Context(), md.OrganizationID, md.ProjectID)
			readable[key] = err == nil
		}

		if readable[key] {
			out = append(out, in)
		}
	}

	return http.StatusOK, out, nil
}

func matches(filter []string, value string) bool {
	return len(filter) == 0 || slices.Contains(filter, value)
}

func hasTags(tags unikorn.Tags, selectors []string) bool {
	for _, selector := range selectors {
		name, value, _ := strings.Cut(selector, "=")
		if got, ok := tags.Get(name); !ok || got != value {
			return false
		}
	}

	return true
}

// find returns the instance the caller may read: compute answers 404 for an unknown
// one and passes identity's refusal through for one in a project the caller may not use.
func (s *Service) find(req *request) (*instance, error) {
	in, ok := s.instances[req.PathValue("instanceID")]
	if !ok {
		return nil, errNotFound()
	}

	if _, err := req.user.GetProject(req.Context(), in.Metadata.OrganizationID, in.Metadata.ProjectID); err != nil {
		return nil, err
	}

	return in, nil
}

func (s *Service) getInstance(req *request) (int, any, error) {
	in, err := s.find(req)
	if err != nil {
		return 0, nil, err
	}

	return http.StatusOK, in.Instance, nil
}

func (s *Service) createInstance(req *request) (int, any, error) {
	var create unikorn.InstanceCreate
	if err := decode(req.Request, &create); err != nil {
		return 0, nil, err
	}

	ctx := req.Context()
	spec := create.Spec

	if create.Metadata.Name == "" || spec.OrganizationID == "" || spec.ProjectID == "" || spec.NetworkID == "" || spec.FlavorID == "" || spec.ImageID == "" {
		return 0, nil, errBadRequest("request body has an error: metadata.name, spec.organizationId, spec.projectId, spec.networkId, spec.flavorId and spec.imageId are required")
	}

	if err := s.allowProject(req, spec.OrganizationID, spec.ProjectID, rbacInstances, opCreate); err != nil {
		return 0, nil, err
	}

	if _, err := req.user.GetProject(ctx, spec.OrganizationID, spec.ProjectID); err != nil {
		return 0, nil, err
	}

	network, err := req.user.GetNetwork(ctx, spec.NetworkID)
	if err != nil {
		return 0, nil, err
	}

	flavor, err := validate(ctx, req.user, spec.OrganizationID, spec.ProjectID, network.Status.RegionID, spec.InstanceSpec)
	if err != nil {
		return 0, nil, err
	}

	place := &unikorn.Instance{Status: unikorn.InstanceStatus{RegionID: network.Status.RegionID, NetworkID: spec.NetworkID}}
	place.Metadata.OrganizationID, place.Metadata.ProjectID = spec.OrganizationID, spec.ProjectID

	if err := checkVolumes(ctx, req.user, place, spec.FlavorID, volumeIDs(spec.InstanceSpec), nil); err != nil {
		return 0, nil, err
	}

	id, err := unikorn.DeriveServerID(spec.NetworkID, create.Metadata.Name)
	if err != nil {
		return 0, nil, errBadRequest("%v", err)
	}

	// The saga: quota first, so that nothing exists that is not paid for.
	allocation, err := s.service.CreateAllocation(background(ctx), spec.OrganizationID, spec.ProjectID, allocationFor(id, flavor, spec.InstanceSpec))
	if err != nil {
		return 0, nil, err
	}

	if _, exists := s.instances[id]; exists {
		// Undo the charge: the name is taken, so this request created nothing.
		_ = s.service.DeleteAllocation(background(ctx), spec.OrganizationID, spec.ProjectID, allocation.Metadata.ID)

		return 0, nil, errConflict()
	}

	md := unikorn.ProjectScopedMetadata{ProjectID: spec.ProjectID}
	md.OrganizationID = spec.OrganizationID
	md.WriteMetadata = create.Metadata
	md.ID = id
	md.CreationTime = s.now().UTC()
	md.ProvisioningStatus = unikorn.ProvisioningPending
	md.HealthStatus = unikorn.HealthUnknown

	in := &instance{
		Instance: unikorn.Instance{
			Metadata: md,
			Spec:     withVolumes(spec.InstanceSpec, volumeIDs(spec.InstanceSpec)),
			Status:   unikorn.InstanceStatus{RegionID: network.Status.RegionID, NetworkID: spec.NetworkID},
		},
		AllocationID: allocation.Metadata.ID,
	}
	s.instances[id] = in

	return http.StatusCreated, in.Instance, nil
}

func (s *Service) updateInstance(req *request) (int, any, error) {
	in, err := s.find(req)
	if err != nil {
		return 0, nil, err
	}

	var update unikorn.InstanceUpdate
	if err := decode(req.Request, &update); err != nil {
		return 0, nil, err
	}

	ctx := req.Context()
	md := &in.Metadata

	if md.DeletionTime != nil {
		return 0, nil, errBadRequest("server is being deleted")
	}

	if update.Metadata.Name != md.Name {
		return 0, nil, errUnprocessable("instance names are immutable")
	}

	// The current spec must still be valid, not only the requested one.
	if _, err := validate(ctx, req.user, md.OrganizationID, md.ProjectID, in.Status.RegionID, in.Spec); err != nil {
		return 0, nil, err
	}

	flavor, err := validate(ctx, req.user, md.OrganizationID, md.ProjectID, in.Status.RegionID, update.Spec)
	if err != nil {
		return 0, nil, err
	}

	// An omitted set keeps the volumes, which must then support a new flavor; a set
	// given replaces them.
	volumes := volumeIDs(in.Spec)

	switch {
	case update.Spec.Volumes != nil:
		volumes = *update.Spec.Volumes
		if err := checkVolumes(ctx, req.user, &in.Instance, update.Spec.FlavorID, volumes, volumeIDs(in.Spec)); err != nil {
			return 0, nil, err
		}
	case update.Spec.FlavorID != in.Spec.FlavorID:
		if err := checkKeptVolumes(ctx, req.user, &in.Instance, update.Spec.FlavorID); err != nil {
			return 0, nil, err
		}
	}

	if _, err := s.service.UpdateAllocation(background(ctx), md.OrganizationID, md.ProjectID, in.AllocationID, allocationFor(md.ID, flavor, update.Spec)); err != nil {
		return 0, nil, err
	}

	now := s.now().UTC()
	md.Description, md.Tags, md.ModifiedTime = update.Metadata.Description, update.Metadata.Tags, &now
	in.Spec = withVolumes(update.Spec, volumes)
	md.ProvisioningStatus = unikorn.ProvisioningProvisioning

	return http.StatusAccepted, in.Instance, nil
}

func (s *Service) deleteInstance(req *request) (int, any, error) {
	in, err := s.find(req)
	if err != nil {
		return 0, nil, err
	}

	if in.Metadata.DeletionTime == nil {
		now := s.now().UTC()
		in.Metadata.DeletionTime = &now
		in.Metadata.ProvisioningStatus = unikorn.ProvisioningDeprovisioning
	}

	return http.StatusAccepted, nil, nil
}

// allocationFor is what an instance charges: one server, its flavor's GPUs and a
// floating IP when it asks for a public address.
func allocationFor(id string, flavor *unikorn.Flavor, spec unikorn.InstanceSpec) unikorn.AllocationWrite {
	gpus, floatingIPs := 0, 0
	if flavor.Spec.GPU != nil {
		gpus = flavor.Spec.GPU.PhysicalCount
	}

	if spec.Networking != nil && spec.Networking.PublicIP {
		floatingIPs = 1
	}

	return unikorn.AllocationWrite{
		Metadata: unikorn.WriteMetadata{Name: "undefined"},
		Spec: unikorn.AllocationSpec{
			Kind: AllocationKind,
			ID:   id,
			Allocations: []unikorn.ResourceAllocation{
				{Kind: "servers", Committed: 1},
				{Kind: "gpus", Committed: gpus},
				{Kind: "floatingips", Committed: floatingIPs},
			},
		},
	}
}

const errNotAccessible = "requested flavor/image does not exist or is not accessible"

// validate checks a spec against the region's catalogue and the caller's access, as
// compute's handler does on create and, for both the old and the new spec, on update.
func validate(ctx context.Context, user *unikorn.Client, organizationID, projectID, regionID string, spec unikorn.InstanceSpec) (*unikorn.Flavor, error) {
	flavors, err := user.ListFlavors(ctx, organizationID, regionID)
	if err != nil {
		return nil, err
	}

	images, err := user.ListImagesV2(ctx, regionID, unikorn.ImageQuery{OrganizationIDs: []string{organizationID}, Scope: unikorn.ImageScopeAvailable})
	if err != nil {
		return nil, err
	}

	fi := slices.IndexFunc(flavors, func(f unikorn.Flavor) bool { return f.Metadata.ID == spec.FlavorID })
	ii := slices.IndexFunc(images, func(i unikorn.Image) bool { return i.Metadata.ID == spec.ImageID })

	if fi < 0 || ii < 0 {
		return nil, errBadRequest(errNotAccessible)
	}

	flavor, image := &flavors[fi], images[ii]

	switch {
	case image.Status.State != unikorn.ImageReady:
		return nil, errBadRequest("image is not ready")
	case flavor.Spec.Architecture != image.Spec.Architecture:
		return nil, errBadRequest("flavor and image architectures differ")
	case flavor.Spec.Disk < image.Spec.SizeGiB:
		return nil, errBadRequest("flavor disk is smaller than the image")
	case image.Spec.Virtualization == "baremetal" && !flavor.Spec.Baremetal,
		image.Spec.Virtualization == "virtualized" && flavor.Spec.Baremetal:
		return nil, errBadRequest("image virtualization is not supported by the flavor")
	}

	if spec.Networking != nil {
		for _, id := range spec.Networking.SecurityGroups {
			if _, err := user.GetSecurityGroup(ctx, id); err != nil {
				return nil, err
			}
		}
	}

	if spec.SSHCertificateAuthorityID != "" {
		ca, err := user.GetSSHCertificateAuthority(ctx, spec.SSHCertificateAuthorityID)
		if err != nil || ca.Metadata.OrganizationID != organizationID || ca.Metadata.ProjectID != projectID {
			return nil, errUnprocessable("SSH certificate authority must be in the instance's organization and project")
		}

		if spec.UserData != "" && !isCloudInit(spec.UserData) {
			return nil, errUnprocessable("user data must be a recognized cloud-init format to add the SSH certificate authority")
		}
	}

	return flavor, nil
}

// isCloudInit tells user data compute can merge an SSH CA into: cloud-config or a
// MIME multipart archive.
func isCloudInit(encoded string) bool {
	data, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return false
	}

	text := string(data)

	return strings.HasPrefix(text, "#cloud-config") || strings.HasPrefix(text, "Content-Type: multipart/")
}
