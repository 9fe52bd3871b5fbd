package instance

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func (s *Service) sortedIDs() []string {
	ids := make([]string, 0, len(s.instances))
	for id := range s.instances {
		ids = append(ids, id)
	}

	slices.Sort(ids)

	return ids
}

// reconcile is the controller and the reverse watch in one pass: it brings every
// instance's hidden server in line with the instance (creating it, recreating it for a
// new flavor or image, replacing one deleted behind compute's back, pushing tag,
// networking and volume changes), projects the server's status back (its attachments
// too), and finishes deletions server first, allocation last. A call that fails is tried again on the next pass;
// nothing is called gone without region saying so. It reports whether it called
// region or identity, or failed to list: a pass that did neither changes nothing
// when run again against the same answers.
func (s *Service) reconcile(ctx context.Context) (acted bool) {
	ctx = background(ctx)

	servers, err := s.service.ListServers(ctx, unikorn.ServerQuery{})
	if err != nil {
		return true
	}

	// Each instance finds its servers by the tag in one look-up, not by a walk of
	// every server: a pass costs what region lists, not that times the instances.
	backing := map[string][]unikorn.Server{}

	for _, server := range servers {
		if tag, ok := server.Metadata.Tags.Get(InstanceTag); ok {
			backing[tag] = append(backing[tag], server)
		}
	}

	for _, id := range s.sortedIDs() {
		in := s.instances[id]

		if in.Metadata.DeletionTime != nil {
			acted = s.deprovision(ctx, in, backing[id]) || acted

			continue
		}

		acted = s.provision(ctx, in, backing[id]) || acted
	}

	return acted
}

func (s *Service) deprovision(ctx context.Context, in *instance, backing []unikorn.Server) bool {
	if len(backing) > 0 {
		acted := false

		for _, server := range backing {
			if server.Metadata.DeletionTime == nil {
				_ = s.service.DeleteServer(ctx, server.Metadata.ID)
				acted = true
			}
		}

		return acted
	}

	// Region's lists answer from a cache that may not yet show a server made moments
	// ago; a delete reads the latest, so only its 404 says the server is gone.
	if in.ServerID != "" {
		if err := s.service.DeleteServer(ctx, in.ServerID); !unikorn.IsNotFound(err) {
			return true
		}

		in.ServerID = ""
	}

	md := in.Metadata

	err := s.service.DeleteAllocation(ctx, md.OrganizationID, md.ProjectID, in.AllocationID)
	if err == nil || unikorn.IsNotFound(err) {
		delete(s.instances, md.ID)
	}

	return true
}

// provision brings an instance's server in line with it; it reports whether it
// called region.
func (s *Service) provision(ctx context.Context, in *instance, backing []unikorn.Server) bool {
	if len(backing) != 1 {
		in.Metadata.ProvisioningStatus = unikorn.ProvisioningProvisioning
		in.Status.PowerState = unikorn.PowerPending

		if len(backing) == 0 {
			in.Status.Volumes = attachments(in.Spec, unikorn.Server{})

			if created, err := s.service.CreateServer(ctx, serverCreate(in)); err == nil {
				in.ServerID = created.Metadata.ID
			}

			return true
		}

		return false
	}

	server := backing[0]
	in.ServerID = server.Metadata.ID

	switch {
	case server.Metadata.DeletionTime != nil:
		// Being replaced: wait for region to finish deleting it, then create anew.
		in.Metadata.ProvisioningStatus = unikorn.ProvisioningProvisioning
		in.Status.Volumes = attachments(in.Spec, server)
	case server.Spec.FlavorID != in.Spec.FlavorID || server.Spec.ImageID != in.Spec.ImageID:
		// A server cannot change flavor or image: compute deletes and recreates it.
		in.Metadata.ProvisioningStatus = unikorn.ProvisioningProvisioning
		_ = s.service.DeleteServer(ctx, server.Metadata.ID)

		return true
	default:
		want := serverCreate(in)
		if !slices.Equal(server.Metadata.Tags, want.Metadata.Tags) || !sameNetworking(server.Spec.Networking, want.Spec.Networking) ||
			!slices.Equal(server.Spec.Volumes, want.Spec.Volumes) {
			// Region's answer to the update still shows the server as it was before
			// region acts on it: the instance stays provisioning until a later read
			// of the server shows the change provisioned, as compute's watch would.
			in.Metadata.ProvisioningStatus = unikorn.ProvisioningProvisioning
			_, _ = s.service.UpdateServer(ctx, server.Metadata.ID, unikorn.ServerUpdate{Metadata: want.Metadata, Spec: want.Spec.ServerSpec})

			return true
		}

		project(in, server)
	}

	return false
}

func sameNetworking(a, b *unikorn.ServerNetworking) bool {
	if a == nil || b == nil {
		return (a == nil || len(a.SecurityGroups)+len(a.AllowedSourceAddresses) == 0 && !a.PublicIP) ==
			(b == nil || len(b.SecurityGroups)+len(b.AllowedSourceAddresses) == 0 && !b.PublicIP)
	}

	return a.PublicIP == b.PublicIP && slices.Equal(a.SecurityGroups, b.SecurityGroups) && slices.Equal(a.AllowedSourceAddresses, b.AllowedSourceAddresses)
}

// project copies what the user sees of the server onto the instance.
func project(in *instance, server unikorn.Server) {
	in.Status.PrivateIP = server.Status.PrivateIP
	in.Status.PublicIP = server.Status.PublicIP
	in.Status.MACAddress = server.Status.MACAddress
	in.Metadata.HealthStatus = server.Metadata.HealthStatus
	in.Status.Volumes = attachments(in.Spec, server)

	switch server.Status.PowerState {
	case unikorn.PowerRunning, unikorn.PowerStopping, unikorn.PowerStopped:
		in.Status.PowerState = server.Status.PowerState
	default:
		in.Status.PowerState = unikorn.PowerPending
	}

	// A server region failed to provision fails the instance: compute shows it rather
	// than leave the user waiting on an instance that will never come up.
	switch server.Metadata.ProvisioningStatus {
	case unikorn.ProvisioningProvisioned, unikorn.ProvisioningError:
		in.Metadata.ProvisioningStatus = server.Metadata.ProvisioningStatus
	default:
		in.Metadata.ProvisioningStatus = unikorn.ProvisioningProvisioning
	}
}

// serverCreate is the hidden server an instance stands for: the user's tags plus the
// reserved one that finds it again.
func serverCreate(in *instance) unikorn.ServerCreate {
	tags := slices.DeleteFunc(slices.Clone(in.Metadata.Tags), func(t unikorn.Tag) bool { return t.Name == InstanceTag })
	tags = append(tags, unikorn.Tag{Name: InstanceTag, Value: in.Metadata.ID})

	return unikorn.ServerCreate{
		Metadata: unikorn.WriteMetadata{Name: in.Metadata.Name, Description: in.Metadata.Description, Tags: tags},
		Spec: unikorn.ServerCreateSpec{
			ServerSpec: unikorn.ServerSpec{
				FlavorID:   in.Spec.FlavorID,
				ImageID:    in.Spec.ImageID,
				Networking: in.Spec.Networking,
				UserData:   in.Spec.UserData,
				Volumes:    serverVolumes(in.Spec),
			},
			NetworkID:                 in.Status.NetworkID,
			SSHCertificateAuthorityID: in.Spec.SSHCertificateAuthorityID,
		},
	}
}

// backingServer finds the one server behind an instance the way compute's verbs do, by
// its reserved tag; none or several is compute's own failure.
func (s *Service) backingServer(ctx context.Context, in *instance) (*unikorn.Server, error) {
	md := in.Metadata

	servers, err := s.service.ListServers(ctx, unikorn.ServerQuery{
		Tags:            unikorn.Tags{{Name: InstanceTag, Value: md.ID}},
		OrganizationIDs: []string{md.OrganizationID},
		ProjectIDs:      []string{md.ProjectID},
		RegionIDs:       []string{in.Status.RegionID},
		NetworkIDs:      []string{in.Status.NetworkID},
	})
	if err != nil || len(servers) != 1 {
		return nil, errServer()
	}

	return &servers[0], nil
}

// serverVerb is one operational verb against the backing server.
type serverVerb func(ctx context.Context, c *unikorn.Client, req *request, serverID string) (int, any, error)

func startServer(ctx context.Context, c *unikorn.Client, _ *request, id string) (int, any, error) {
	return http.StatusAccepted, nil, c.StartServer(ctx, id)
}

func stopServer(ctx context.Context, c *unikorn.Client, _ *request, id string) (int, any, error) {
	return http.StatusAccepted, nil, c.StopServer(ctx, id)
}

func rebootServer(ctx context.Context, c *unikorn.Client, req *request, id string) (int, any, error) {
	if hard, _ := strconv.ParseBool(req.URL.Query().Get("hard")); hard {
		return http.StatusAccepted, nil, c.HardRebootServer(ctx, id)
	}

	return http.StatusAccepted, nil, c.SoftRebootServer(ctx, id)
}

func sshKey(ctx context.Context, c *unikorn.Client, _ *request, id string) (int, any, error) {
	key, err := c.GetServerSSHKey(ctx, id)

	return http.StatusOK, key, err
}

func consoleSession(ctx context.Context, c *unikorn.Client, _ *request, id string) (int, any, error) {
	session, err := c.GetServerConsoleSession(ctx, id)

	return http.StatusOK, session, err
}

func consoleOutput(ctx context.Context, c *unikorn.Client, req *request, id string) (int, any, error) {
	length, _ := strconv.Atoi(req.URL.Query().Get("length"))
	output, err := c.GetServerConsoleOutput(ctx, id, length)

	return http.StatusOK, output, err
}

// verb serves an operational verb: read access to the instance is enough, and any
// failure of region's is compute's 500, not region's answer.
func (s *Service) verb(do serverVerb) handler {
	return func(req *request) (int, any, error) {
		in, err := s.find(req)
		if err != nil {
			return 0, nil, err
		}

		ctx := background(req.Context())

		server, err := s.backingServer(ctx, in)
		if err != nil {
			return 0, nil, err
		}

		status, body, err := do(ctx, s.service, req, server.Metadata.ID)
		if err != nil {
			return 0, nil, errServer()
		}

		return status, body, nil
	}
}

// snapshot images the instance's disk. Only compute may say which instance an image
// came from, so the caller's provenance tags are replaced by compute's.
func (s *Service) snapshot(req *request) (int, any, error) {
	var create unikorn.InstanceSnapshotCreate
	if err := decode(req.Request, &create); err != nil {
		return 0, nil, err
	}

	return s.verb(func(ctx context.Context, c *unikorn.Client, _ *request, id string) (int, any, error) {
		tags := slices.DeleteFunc(slices.Clone(create.Metadata.Tags), func(t unikorn.Tag) bool {
			return strings.HasPrefix(t.Name, snapshotTagPrefix)
		})
		tags = append(tags, unikorn.Tag{Name: snapshotTag, Value: req.PathValue("instanceID")})

		image, err := c.SnapshotServer(ctx, id, unikorn.SnapshotCreate{
			Metadata: unikorn.WriteMetadata{Name: create.Metadata.Name, Description: create.Metadata.Description, Tags: tags},
		})

		return http.StatusCreated, image, err
	})(req)
}
