package instance_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/stretchr/testify/assert"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Every bad input fails the plan, on its attribute, before anything is created.
func TestAccInstancePlanTimeValidation(t *testing.T) {
	t.Parallel()

	const unknownID = `"f0000000-0000-4000-8000-000000000099"`

	cases := map[string]struct {
		change attrs
		want   string
	}{
		"unknown flavor": {attrs{"flavor_id": unknownID}, `(?s)Unknown flavor.*flavor_id`},
		"unknown image":  {attrs{"image_id": unknownID}, `(?s)Unknown image.*image_id`},
		"architecture mismatch": {
			attrs{"flavor_id": acctest.Quote(sandbox.FlavorArmID)},
			`(?s)Architecture mismatch.*built for x86_64 but flavor sim-arm-2 has aarch64`,
		},
		"disk too small": {
			attrs{"flavor_id": acctest.Quote(sandbox.FlavorTinyID)},
			`(?s)Disk too small.*sim-tiny-1 has a 10 GB disk but image ubuntu-24.04-amd64 needs at least 20 GiB`,
		},
		"virtualization mismatch": {
			attrs{"image_id": acctest.Quote(sandbox.ImageUbuntuMetalID)},
			`(?s)Virtualization mismatch.*for bare-metal machines but flavor sim-standard-4 is virtual`,
		},
		"security group of another network": {
			attrs{"security_group_ids": fmt.Sprintf("[%q]", sandbox.SecurityGroupSecondarySSHID)},
			`(?s)Security group on another network.*` + sandbox.NetworkSecondaryID,
		},
		"SSH CA of another project": {
			attrs{"ssh_certificate_authority_id": acctest.Quote(sandbox.OtherSSHCAID)},
			`(?s)SSH certificate authority in another project.*` + sandbox.OtherProjectID,
		},
		"user data not cloud-init with an SSH CA": {
			attrs{"ssh_certificate_authority_id": acctest.Quote(sandbox.SSHCAID), "user_data": `"echo hello"`},
			`(?s)User data is not cloud-init.*user_data`,
		},
		"write-only user data not cloud-init with an SSH CA": {
			attrs{"ssh_certificate_authority_id": acctest.Quote(sandbox.SSHCAID), "user_data_wo": `"echo hello"`, "user_data_wo_version": "1"},
			`(?s)User data is not cloud-init.*user_data_wo`,
		},
		"reserved tag": {
			attrs{"tags": `{ "compute.unikorn-cloud.org/instance-id" = "forged" }`},
			`(?s)Invalid tag name.*prefix reserved by Unikorn`,
		},
		"empty tag name": {
			attrs{"tags": `{ "" = "x" }`},
			`(?s)Invalid tag name.*must not be empty`,
		},
		"user data over the size limit": {
			attrs{"user_data": `format("#!/bin/sh\n# %070000d", 0)`},
			`(?s)User data too large.*65535`,
		},
		"invalid name":        {attrs{"name": `"-web-"`}, `(?s)Invalid instance name.*not a valid instance name`},
		"malformed flavor ID": {attrs{"flavor_id": `"sim-standard-4"`}, `(?s)flavor_id.*must be a lowercase UUID`},
		"host bits in a CIDR": {attrs{"allowed_source_addresses": `["10.0.0.1/8"]`}, `(?s)Invalid allowed source address.*did you mean 10.0.0.0/8`},
		"unknown network":     {attrs{"network_id": unknownID}, `(?s)Network not found.*network_id`},
	}

	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			acctest.ForEachBackend(t, func(t *testing.T, env *acctest.Environment) {
				env.SkipUnlessSandbox(t)

				a := baseAttrs(env)
				for attribute, value := range tc.change {
					a = a.with(attribute, value)
				}

				resource.ParallelTest(t, testCase(t, env, resource.TestStep{
					Config: config(env, a),
					// Terraform wraps long lines, so a space may stand for any white space.
					ExpectError: regexp.MustCompile(strings.ReplaceAll(tc.want, " ", `\s+`)),
				}))

				assert.Empty(t, env.Servers(t, unikorn.ServerQuery{}), "no server is created")
				assert.Empty(t, instanceAllocations(t, env), "no quota is charged")
			}, acctest.Production(t))
		})
	}
}
