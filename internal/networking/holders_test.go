package networking_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/cloud/cloudtest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/storage"
)

// heldWorld is a sandbox in which a project user, on the compute path, has attached
// file storage "shared" to the default network and runs compute instance "web" on
// it, in the allow-ssh group and trusting the sandbox's SSH certificate authority:
// the network, the group and the authority are held.
func heldWorld(t *testing.T) *cloudtest.World {
	t.Helper()

	world := cloudtest.Start(t, cloudtest.Config{})
	ctx := t.Context()

	_, err := storage.NewService(world.Session).Create(ctx, storage.Placement{
		OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.ProjectID,
		RegionID: sandbox.RegionID, ClassID: sandbox.StorageClassStandardID,
	}, storage.Desired{Metadata: cloud.WriteMetadata{Name: "shared"}, SizeGiB: 1, RootSquash: true, NetworkIDs: []string{sandbox.NetworkDefaultID}})
	require.NoError(t, err)

	user := world.NewSession(world.NewComputeClient(t, sandbox.DefaultToken, nil), 0)
	instances := compute.NewComputeInstances(compute.NewService(user))
	instance, err := instances.Create(ctx, compute.Spec{
		Name: "web", NetworkID: sandbox.NetworkDefaultID, FlavorID: sandbox.FlavorStandardID, ImageID: sandbox.ImageUbuntuID,
		SecurityGroupIDs: []string{sandbox.SecurityGroupAllowSSHID}, SSHCertificateAuthorityID: sandbox.SSHCAID,
	})
	require.NoError(t, err)
	_, err = instances.WaitReady(ctx, instance)
	require.NoError(t, err)

	return world
}

// heldBy is what a held delete says of its holders: each found as "kind name", and
// each list it could not read as what Unread says of it.
type heldBy struct {
	found, unread []string
}

// What holds a network, a security group or an SSH certificate authority is looked for
// in every list the token may read: one it may not read (region's servers, for a
// project user) or one that fails is named, and the others are still searched, so that
// the holders the token can see are named whatever else it cannot.
func TestHeldDeletesNameEveryHolderTheTokenCanSee(t *testing.T) {
	t.Parallel()

	const (
		serversForbidden = "the token may not list region's servers"
		instance         = `instance "web"`
		share            = `file storage "shared"`
	)

	tests := map[string]struct {
		token string
		// compute says that the provider's instances are compute's.
		compute                   bool
		faults                    []sandbox.FaultRule
		network, group, authority heldBy
	}{
		"a project user on the compute path": {
			token: sandbox.DefaultToken, compute: true,
			network:   heldBy{found: []string{share, instance}, unread: []string{serversForbidden}},
			group:     heldBy{found: []string{instance}, unread: []string{serversForbidden}},
			authority: heldBy{found: []string{instance}, unread: []string{serversForbidden}},
		},
		"a platform administrator on the region path": {
			token:     sandbox.PlatformAdminToken,
			network:   heldBy{found: []string{share, instance}},
			group:     heldBy{found: []string{instance}},
			authority: heldBy{found: []string{instance}},
		},
		// Compute's instance and the server region shows for it are one holder.
		"a platform administrator on the compute path": {
			token: sandbox.PlatformAdminToken, compute: true,
			network:   heldBy{found: []string{share, instance}},
			group:     heldBy{found: []string{instance}},
			authority: heldBy{found: []string{instance}},
		},
		// Compute's own account sees the servers, but region's list of file storage
		// leaves out what its role may not read.
		"compute's account on the region path": {
			token:     sandbox.ServiceToken,
			network:   heldBy{found: []string{instance}},
			group:     heldBy{found: []string{instance}},
			authority: heldBy{found: []string{instance}},
		},
		"a project user whose list of compute's instances fails": {
			token: sandbox.DefaultToken, compute: true,
			faults:    []sandbox.FaultRule{{Method: http.MethodGet, Route: sandbox.ComputePrefix + "/api/v2/instances", Status: http.StatusServiceUnavailable}},
			network:   heldBy{found: []string{share}, unread: []string{"the list of compute's instances failed", serversForbidden}},
			group:     heldBy{unread: []string{"the list of compute's instances failed", serversForbidden}},
			authority: heldBy{unread: []string{"the list of compute's instances failed", serversForbidden}},
		},
		"a platform administrator who may not list file storage": {
			token:     sandbox.PlatformAdminToken,
			faults:    []sandbox.FaultRule{{Method: http.MethodGet, Route: "/api/v2/filestorage", Status: http.StatusForbidden}},
			network:   heldBy{found: []string{instance}, unread: []string{"the token may not list file storage"}},
			group:     heldBy{found: []string{instance}},
			authority: heldBy{found: []string{instance}},
		},
	}

	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			world := heldWorld(t)

			for _, rule := range tt.faults {
				_, err := world.Sandbox.AddFault(rule)
				require.NoError(t, err)
			}

			service := networking.NewService(world.NewSession(world.NewClient(t, tt.token, nil), 0))
			if tt.compute {
				service = service.HeldByComputeInstances()
			}

			deletes := map[string]struct {
				delete func(context.Context, string, time.Time) error
				id     string
				want   heldBy
			}{
				"network":                   {service.DeleteNetwork, sandbox.NetworkDefaultID, tt.network},
				"security group":            {service.DeleteSecurityGroup, sandbox.SecurityGroupAllowSSHID, tt.group},
				"SSH certificate authority": {service.DeleteSSHCertificateAuthority, sandbox.SSHCAID, tt.authority},
			}

			for kind, d := range deletes {
				t.Run(kind, func(t *testing.T) {
					t.Parallel()

					ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
					defer cancel()

					var held *cloud.HeldError
					require.ErrorAs(t, d.delete(ctx, d.id, time.Time{}), &held)
					found, unread := cloudtest.Held(held.Holders)
					assert.Equal(t, d.want, heldBy{found, unread}, held.Error())

					if len(d.want.found) > 0 {
						assert.NotContains(t, held.HolderNames(), "none that the token can see")
					}
				})
			}
		})
	}
}
