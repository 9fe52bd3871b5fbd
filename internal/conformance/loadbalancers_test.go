package conformance

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// loadBalancers drives a load balancer through its life on the run's network, every
// optional member set once so that each is seen on the wire, and provokes the
// refusals its operations declare. Region v1.20.0's document judges these exchanges.
func (r *run) loadBalancers(t *testing.T) {
	ctx := t.Context()
	yes, interval, timeout, idle := true, 15, 3, 120

	create := unikorn.LoadBalancerCreate{
		Metadata: unikorn.WriteMetadata{
			Name:        "conformance-lb",
			Description: "a load balancer for the conformance test",
			Tags:        unikorn.Tags{{Name: "purpose", Value: "conformance"}},
		},
		Spec: unikorn.LoadBalancerCreateSpec{
			LoadBalancerSpec: unikorn.LoadBalancerSpec{
				PublicIP: &yes,
				Listeners: []unikorn.LoadBalancerListener{{
					Name: "https", Protocol: unikorn.LoadBalancerProtocolTCP, Port: 443,
					AllowedCIDRs:       []string{"192.0.2.0/24"},
					IdleTimeoutSeconds: &idle,
					Pool: unikorn.LoadBalancerPool{
						ProxyProtocolV2: &yes,
						Members:         []unikorn.LoadBalancerMember{{Address: "10.20.0.100", Port: 8443}},
						HealthCheck:     &unikorn.LoadBalancerHealthCheck{IntervalSeconds: &interval, TimeoutSeconds: &timeout},
					},
				}, {
					Name: "dns", Protocol: unikorn.LoadBalancerProtocolUDP, Port: 53,
					Pool: unikorn.LoadBalancerPool{Members: []unikorn.LoadBalancerMember{}},
				}},
			},
			NetworkID:  r.networkID,
			VIPAddress: "10.20.0.250",
		},
	}

	created, err := call(r.coverage, r.client.CreateLoadBalancer)(ctx, create)
	require.NoError(t, err)
	require.Equal(t, unikorn.ProvisioningPending, created.Metadata.ProvisioningStatus)

	id := created.Metadata.ID

	listed, err := call(r.coverage, r.client.ListLoadBalancers)(ctx, unikorn.LoadBalancerQuery{
		Tags:            unikorn.Tags{{Name: "purpose", Value: "conformance"}},
		OrganizationIDs: []string{sandbox.OrganizationID},
		ProjectIDs:      []string{sandbox.ProjectID},
		RegionIDs:       []string{sandbox.RegionID},
		NetworkIDs:      []string{r.networkID},
	})
	require.NoError(t, err)
	require.Len(t, listed, 1)
	require.Equal(t, id, listed[0].Metadata.ID)

	provisioned := r.waitForLoadBalancer(t, id, func(lb *unikorn.LoadBalancer) bool {
		return lb.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned && lb.Status.PublicIP != ""
	})
	require.Equal(t, "10.20.0.250", provisioned.Status.VIPAddress)

	// The whole document again, without the public IP and with the UDP listener gone.
	no := false
	spec := provisioned.Spec
	spec.PublicIP = &no
	spec.Listeners = spec.Listeners[:1]

	updated, err := call(r.coverage, r.client.UpdateLoadBalancer)(ctx, id, unikorn.LoadBalancerUpdate{
		Metadata: unikorn.WriteMetadata{Name: "conformance-lb", Tags: unikorn.Tags{{Name: "purpose", Value: "conformance"}}},
		Spec:     spec,
	})
	require.NoError(t, err)
	require.False(t, *updated.Spec.PublicIP)

	r.waitForLoadBalancer(t, id, func(lb *unikorn.LoadBalancer) bool {
		return lb.Metadata.ProvisioningStatus == unikorn.ProvisioningProvisioned && lb.Status.PublicIP == ""
	})

	// An existing listener keeps its port.
	spec.Listeners[0].Port = 8443
	_, err = call(r.coverage, r.client.UpdateLoadBalancer)(ctx, id, unikorn.LoadBalancerUpdate{
		Metadata: unikorn.WriteMetadata{Name: "conformance-lb"}, Spec: spec,
	})
	require.True(t, unikorn.IsUnprocessable(err), "changing a listener's port is a 422, got %v", err)

	missing := create
	missing.Spec.NetworkID = missingID
	_, err = call(r.coverage, r.client.CreateLoadBalancer)(ctx, missing)
	require.True(t, unikorn.IsNotFound(err), "a load balancer on a missing network is a 404, got %v", err)

	require.NoError(t, call(r.coverage, r.client.DeleteLoadBalancer)(ctx, id))
	r.poll(t, "the load balancer to be gone", func() bool {
		_, err := call(r.coverage, r.client.GetLoadBalancer)(ctx, id)
		if unikorn.IsNotFound(err) {
			return true
		}

		require.NoError(t, err)

		return false
	})

	err = call(r.coverage, r.client.DeleteLoadBalancer)(ctx, id)
	require.True(t, unikorn.IsNotFound(err), "a load balancer that is gone is a 404 to delete, got %v", err)
}

func (r *run) waitForLoadBalancer(t *testing.T, id string, ready func(*unikorn.LoadBalancer) bool) *unikorn.LoadBalancer {
	t.Helper()

	var lb *unikorn.LoadBalancer

	r.poll(t, "the load balancer to settle", func() bool {
		read, err := call(r.coverage, r.client.GetLoadBalancer)(t.Context(), id)
		require.NoError(t, err)

		lb = read

		return ready(read)
	})

	return lb
}
