package instance_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/compute"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func stateValue(name string, value knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(address, tfjsonpath.New(name), value)
}

var ipv4 = regexp.MustCompile(`^\d+\.\d+\.\d+\.\d+$`)

func TestAccInstanceCreateReadImport(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{
				Config: config(env, baseAttrs(env).with("tags", `{ team = "web" }`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionCreate),
					// What reads the instance by ID must wait until it exists.
					plancheck.ExpectUnknownValue(address, tfjsonpath.New("id")),
					plancheck.ExpectKnownValue(address, tfjsonpath.New("project_id"), knownvalue.StringExact(sandbox.ProjectID)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					stateValue("id", knownvalue.StringExact(instanceID(t, "web"))),
					stateValue("organization_id", knownvalue.StringExact(sandbox.OrganizationID)),
					stateValue("project_id", knownvalue.StringExact(sandbox.ProjectID)),
					stateValue("region_id", knownvalue.StringExact(sandbox.RegionID)),
					stateValue("provisioning_status", knownvalue.StringExact("provisioned")),
					stateValue("health_status", knownvalue.StringExact("healthy")),
					stateValue("power_state", knownvalue.StringExact("Running")),
					stateValue("private_ip", knownvalue.StringRegexp(ipv4)),
					stateValue("public_ip_address", knownvalue.Null()),
					stateValue("mac_address", knownvalue.StringRegexp(regexp.MustCompile(`^([0-9a-f]{2}:){5}[0-9a-f]{2}$`))),
					stateValue("creation_time", knownvalue.NotNull()),
					stateValue("public_ip", knownvalue.Bool(false)),
					stateValue("tags", knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("web")})),
				},
				Check: checkSandbox(func() error {
					servers := env.Servers(t, unikorn.ServerQuery{Tags: unikorn.Tags{{Name: compute.InstanceIDTag, Value: instanceID(t, "web")}}})
					if len(servers) != 1 {
						return fmt.Errorf("want 1 server carrying the instance tag, got %d", len(servers))
					}

					allocations := instanceAllocations(t, env)
					if len(allocations) != 1 || allocations[0].Spec.ID != instanceID(t, "web") {
						return fmt.Errorf("want one allocation for the instance, got %+v", allocations)
					}

					return nil
				}),
			},
			resource.TestStep{
				ResourceName:      address,
				ImportState:       true,
				ImportStateVerify: true,
			},
			resource.TestStep{
				ResourceName:      address,
				ImportState:       true,
				ImportStateVerify: true,
				ImportStateIdFunc: func(state *terraform.State) (string, error) {
					attributes := state.RootModule().Resources[address].Primary.Attributes

					return attributes["organization_id"] + "/" + attributes["project_id"] + "/" + attributes["id"], nil
				},
			},
			resource.TestStep{
				ResourceName:    address,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
		))
	}, acctest.Production(t))
}

func TestAccInstanceImportRejectsMalformedIDs(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {

		resource.ParallelTest(t, testCase(t, env,
			resource.TestStep{Config: config(env, baseAttrs(env))},
			resource.TestStep{
				ResourceName:  address,
				ImportState:   true,
				ImportStateId: "web",
				ExpectError:   regexp.MustCompile(`fits none of the forms the instance takes`),
			},
		))
	}, acctest.Production(t))
}

// Attributes that change in place keep the instance (and its ID); each step changes one.
func TestAccInstanceUpdatesInPlace(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		sameID := statecheck.CompareValue(compare.ValuesSame())
		base := baseAttrs(env)

		steps := []resource.TestStep{{
			Config:            config(env, base),
			ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(address, tfjsonpath.New("id"))},
		}}

		for _, change := range []attrs{
			base.with("tags", `{ team = "web", tier = "front" }`),
			base.with("tags", `{ team = "api" }`, "description", `"API front end"`),
			base.with("tags", `{ team = "api" }`, "description", `"API front end"`,
				"security_group_ids", fmt.Sprintf("[%q, %q]", sandbox.SecurityGroupAllowSSHID, sandbox.SecurityGroupAllowWebID)),
			base.with("security_group_ids", fmt.Sprintf("[%q]", sandbox.SecurityGroupAllowSSHID), "public_ip", "true"),
			base.with("public_ip", "true", "allowed_source_addresses", `["10.20.0.0/16"]`),
			base,
		} {
			steps = append(steps, resource.TestStep{
				Config: config(env, change),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(address, tfjsonpath.New("id"))},
				Check:             checkFloatingIPs(t, env, change["public_ip"] == "true"),
			})
		}

		resource.ParallelTest(t, testCase(t, env, steps...))
	}, acctest.Production(t))
}

// checkFloatingIPs proves that the instance's quota follows its public IP.
func checkFloatingIPs(t *testing.T, env *acctest.Environment, publicIP bool) resource.TestCheckFunc {
	t.Helper()

	want := 0
	if publicIP {
		want = 1
	}

	return resource.ComposeTestCheckFunc(
		checkSandbox(func() error {
			allocations := instanceAllocations(t, env)
			if len(allocations) != 1 {
				return fmt.Errorf("want 1 instance allocation, got %d", len(allocations))
			}

			for _, line := range allocations[0].Spec.Allocations {
				if line.Kind == compute.QuotaFloatingIPs && line.Committed != want {
					return fmt.Errorf("floatingips committed %d, want %d", line.Committed, want)
				}
			}

			return nil
		}),
		func(state *terraform.State) error {
			address := state.RootModule().Resources[address].Primary.Attributes["public_ip_address"]
			if publicIP != (address != "") {
				return fmt.Errorf("public_ip %t but public_ip_address %q", publicIP, address)
			}

			return nil
		},
	)
}

// Attributes that recreate the server replace the instance; each step changes one.
func TestAccInstanceReplaces(t *testing.T) {
	acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
		env.SkipUnlessSandbox(t)

		base := baseAttrs(env)
		withCA := base.with("ssh_certificate_authority_id", acctest.Quote(sandbox.SSHCAID), "user_data", `"#cloud-config\n{}\n"`)

		steps := []resource.TestStep{{Config: config(env, base)}}

		for _, change := range []attrs{
			base.with("flavor_id", acctest.Quote(sandbox.FlavorGPUID)),
			base.with("flavor_id", acctest.Quote(sandbox.FlavorGPUID), "image_id", acctest.Quote(sandbox.ImageDebianID)),
			base.with("image_id", acctest.Quote(sandbox.ImageDebianID), "name", `"web-2"`),
			base.with("image_id", acctest.Quote(sandbox.ImageDebianID), "name", `"web-2"`, "network_id", acctest.Quote(sandbox.NetworkSecondaryID)),
			base.with("user_data", `"#!/bin/sh\necho hello\n"`),
			withCA,
			withCA.with("ssh_certificate_authority_id", ""),
		} {
			steps = append(steps, resource.TestStep{
				Config: config(env, change),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(address, plancheck.ResourceActionReplace),
				}},
				Check: checkSandbox(func() error {
					if servers := env.Servers(t, unikorn.ServerQuery{}); len(servers) != 1 {
						return fmt.Errorf("a replacement leaves exactly one server, got %d", len(servers))
					}

					if allocations := instanceAllocations(t, env); len(allocations) != 1 {
						return fmt.Errorf("a replacement leaves exactly one allocation, got %d", len(allocations))
					}

					return nil
				}),
			})
		}

		resource.ParallelTest(t, testCase(t, env, steps...))
	}, acctest.Production(t))
}
