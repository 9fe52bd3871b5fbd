// Package webtier_test builds what an infrastructure repository builds around its
// instances, every family of the provider together: a network with room for storage,
// a security group, instances, a load balancer in front of them and file storage they
// share, and checks that it changes in place and leaves nothing behind.
package webtier_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

const (
	loadBalancer = "unikorn_load_balancer.web"
	storage      = "unikorn_file_storage.shared"
)

// tier is what differs between the steps of the web tier.
type tier struct {
	// members are the indexes of the instances behind the http listener.
	members []int
	// metrics adds a second listener.
	metrics bool
	sizeGiB int
	// nightly adds a snapshot policy.
	nightly bool
}

func (w tier) config(env *acctest.Environment) string {
	members := make([]string, len(w.members))
	for i, index := range w.members {
		members[i] = fmt.Sprintf("{ address = unikorn_compute_instance.web[%d].private_ip, port = 80 }", index)
	}

	var metrics, policies string
	if w.metrics {
		metrics = `
    metrics = {
      protocol      = "tcp"
      port          = 9100
      allowed_cidrs = ["192.0.2.0/24"]
      members       = [for instance in unikorn_compute_instance.web : { address = instance.private_ip, port = 9100 }]
    }`
	}

	if w.nightly {
		policies = `
  snapshot_policies = {
    nightly = { interval = "daily", time_of_day = "02:30Z", keep = 7 }
  }`
	}

	return env.ProviderConfig() + fmt.Sprintf(`
resource "unikorn_network" "web" {
  name      = "web-tier"
  region_id = %[1]s
  prefix    = "10.60.0.0/24"

  reservations = {
    prefix_length                   = 25
    provider_reserved_prefix_length = 28
  }
}

resource "unikorn_security_group" "web" {
  name       = "web"
  network_id = unikorn_network.web.id
  rules = [
    { direction = "ingress", protocol = "tcp", port = 80 },
    { direction = "ingress", protocol = "tcp", port = 9100, prefix = "192.0.2.0/24" },
  ]
}

resource "unikorn_compute_instance" "web" {
  count = 2

  name               = "web-${count.index}"
  network_id         = unikorn_network.web.id
  flavor_id          = %[2]s
  image_id           = %[3]s
  security_group_ids = [unikorn_security_group.web.id]
}

resource "unikorn_load_balancer" "web" {
  name              = "web"
  network_id        = unikorn_network.web.id
  public_ip_enabled = true

  listeners = {
    http = {
      protocol     = "tcp"
      port         = 80
      members      = [%[4]s]
      health_check = {}
    }%[5]s
  }
}

data "unikorn_file_storage_classes" "nfs" {
  region_id = %[1]s
  protocol  = "nfsv4"
}

resource "unikorn_file_storage" "shared" {
  name             = "shared"
  region_id        = %[1]s
  storage_class_id = data.unikorn_file_storage_classes.nfs.classes[0].id
  size_gib         = %[6]d
  attachments      = [unikorn_network.web.id]%[7]s
}
`, acctest.Quote(env.RegionID), acctest.Quote(env.FlavorID), acctest.Quote(env.ImageID),
		strings.Join(members, ", "), metrics, w.sizeGiB, policies)
}

// nothingLeft checks the sandbox's own records: no load balancer, storage, server,
// network, allocation (public IPs and storage bytes among them) that the test made.
func nothingLeft(t *testing.T, env *acctest.Environment) resource.TestCheckFunc {
	t.Helper()

	return func(*terraform.State) error {
		if left := env.LeftBehind(t); len(left) > 0 {
			kinds := make([]string, len(left))
			for i, object := range left {
				kinds[i] = object.Kind + " " + object.ID
			}

			return fmt.Errorf("destroy left %d object(s): %s", len(left), strings.Join(kinds, ", "))
		}

		return nil
	}
}

// mounted checks that the storage shows a mount source on the tier's network.
func mounted() resource.TestCheckFunc {
	return func(s *terraform.State) error {
		network := s.RootModule().Resources["unikorn_network.web"].Primary.ID
		if source := s.RootModule().Resources[storage].Primary.Attributes["mounts."+network+".mount_source"]; source == "" {
			return fmt.Errorf("the storage shows no mount source on network %s", network)
		}

		return nil
	}
}

// regionHolds checks the sandbox's own records, as they are: the load balancer's http
// listener has members (the instances' private addresses), and the storage has sizeGiB
// and is attached to the tier's network.
func regionHolds(t *testing.T, env *acctest.Environment, members, sizeGiB int) resource.TestCheckFunc {
	t.Helper()

	return func(s *terraform.State) error {
		addresses := map[string]bool{}
		for i := range 2 {
			addresses[s.RootModule().Resources[fmt.Sprintf("unikorn_compute_instance.web.%d", i)].Primary.Attributes["private_ip"]] = true
		}

		lbs := env.LoadBalancers(t)
		if len(lbs) != 1 {
			return fmt.Errorf("the sandbox holds %d load balancers, want 1", len(lbs))
		}

		for _, listener := range lbs[0].Spec.Listeners {
			if listener.Name != "http" {
				continue
			}

			if len(listener.Pool.Members) != members {
				return fmt.Errorf("the http listener has %d members in region, want %d", len(listener.Pool.Members), members)
			}

			for _, member := range listener.Pool.Members {
				if !addresses[member.Address] {
					return fmt.Errorf("member %s is no instance's private address", member.Address)
				}
			}
		}

		network := s.RootModule().Resources["unikorn_network.web"].Primary.ID

		stores := env.FileStorage(t)
		if len(stores) != 1 || stores[0].Spec.SizeGiB != int64(sizeGiB) {
			return fmt.Errorf("the sandbox holds %d file storages (want 1 of %d GiB): %+v", len(stores), sizeGiB, stores)
		}

		if attachments := stores[0].Spec.Attachments; attachments == nil || len(attachments.NetworkIDs) != 1 || attachments.NetworkIDs[0] != network {
			return fmt.Errorf("the storage is not attached to network %s alone: %+v", network, attachments)
		}

		return nil
	}
}

// TestAccWebTier builds a web tier on each instance back end under production's
// harshness (read lag, visibility): two instances behind a public load balancer whose
// members are their private addresses, and file storage mounted on their network.
// Then, in place, a member leaves, a listener joins, the storage grows and gains a
// snapshot policy: the plan updates the load balancer and the storage, replaces
// nothing, and the VIP and public address stay. Destroy leaves nothing behind.
func TestAccWebTier(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		vip := statecheck.CompareValue(compare.ValuesSame())
		publicIP := statecheck.CompareValue(compare.ValuesSame())

		before := tier{members: []int{0, 1}, sizeGiB: 10}
		after := tier{members: []int{0}, metrics: true, sizeGiB: 20, nightly: true}

		resource.Test(t, resource.TestCase{
			PreCheck:                 func() { env.PreCheck(t) },
			ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
			TerraformVersionChecks:   acctest.TerraformVersionChecks(),
			CheckDestroy:             nothingLeft(t, env),
			Steps: []resource.TestStep{
				{
					Config: before.config(env),
					ConfigStateChecks: []statecheck.StateCheck{
						vip.AddStateValue(loadBalancer, tfjsonpath.New("vip_address")),
						publicIP.AddStateValue(loadBalancer, tfjsonpath.New("public_ip")),
						statecheck.ExpectKnownValue(loadBalancer, tfjsonpath.New("listeners").AtMapKey("http").AtMapKey("members"),
							knownvalue.SetSizeExact(2)),
						statecheck.ExpectKnownValue(storage, tfjsonpath.New("size_gib"), knownvalue.Int64Exact(10)),
					},
					Check: resource.ComposeAggregateTestCheckFunc(
						resource.TestCheckResourceAttrSet(loadBalancer, "public_ip"),
						mounted(),
						regionHolds(t, env, 2, 10),
					),
				},
				{
					Config: after.config(env),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(loadBalancer, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction(storage, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("unikorn_compute_instance.web[0]", plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction("unikorn_compute_instance.web[1]", plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction("unikorn_network.web", plancheck.ResourceActionNoop),
					}},
					ConfigStateChecks: []statecheck.StateCheck{
						vip.AddStateValue(loadBalancer, tfjsonpath.New("vip_address")),
						publicIP.AddStateValue(loadBalancer, tfjsonpath.New("public_ip")),
						statecheck.ExpectKnownValue(loadBalancer, tfjsonpath.New("listeners").AtMapKey("http").AtMapKey("members"),
							knownvalue.SetSizeExact(1)),
						statecheck.ExpectKnownValue(loadBalancer, tfjsonpath.New("listeners").AtMapKey("metrics").AtMapKey("port"),
							knownvalue.Int64Exact(9100)),
						statecheck.ExpectKnownValue(storage, tfjsonpath.New("size_gib"), knownvalue.Int64Exact(20)),
						statecheck.ExpectKnownValue(storage, tfjsonpath.New("snapshot_policies").AtMapKey("nightly").AtMapKey("keep"),
							knownvalue.Int64Exact(7)),
					},
					Check: resource.ComposeAggregateTestCheckFunc(mounted(), regionHolds(t, env, 1, 20)),
				},
				{
					// Region's defaults and the read lag show no diff once it settled.
					Config:             after.config(env),
					PlanOnly:           true,
					ExpectNonEmptyPlan: false,
				},
			},
		})
	}, acctest.Production(t))
}
