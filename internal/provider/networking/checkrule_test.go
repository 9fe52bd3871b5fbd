package networking

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/stretchr/testify/assert"
)

// TestCheckRulePaths reports each problem of a rule on the attribute that has it.
func TestCheckRulePaths(t *testing.T) {
	at := path.Root("rules").AtListIndex(3)
	rule := func(protocol string, port, portMax types.Int64, prefix string) ruleModel {
		return ruleModel{
			Direction: types.StringValue("ingress"), Protocol: types.StringValue(protocol),
			Port: port, PortMax: portMax, Prefix: types.StringValue(prefix),
		}
	}
	none := types.Int64Null()

	for name, test := range map[string]struct {
		rule ruleModel
		want []string
	}{
		"valid":                    {rule("tcp", types.Int64Value(80), types.Int64Value(90), "0.0.0.0/0"), nil},
		"port on icmp":             {rule("icmp", types.Int64Value(8), none, "0.0.0.0/0"), []string{"rules[3].port"}},
		"port_max on any":          {rule("any", none, types.Int64Value(8), "0.0.0.0/0"), []string{"rules[3].port_max", "rules[3].port_max"}},
		"reversed range":           {rule("udp", types.Int64Value(90), types.Int64Value(80), "0.0.0.0/0"), []string{"rules[3].port_max"}},
		"port out of range":        {rule("tcp", types.Int64Value(0), none, "0.0.0.0/0"), []string{"rules[3].port"}},
		"host bits":                {rule("tcp", none, none, "10.0.0.1/8"), []string{"rules[3].prefix"}},
		"ipv6 prefix":              {rule("tcp", none, none, "fd00::/8"), []string{"rules[3].prefix"}},
		"unknown is checked later": {ruleModel{Protocol: types.StringUnknown(), Port: types.Int64Unknown(), PortMax: types.Int64Value(5), Prefix: types.StringUnknown()}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diag.Diagnostics
			checkRule(at, test.rule, &diags)

			var got []string
			for _, d := range diags {
				withPath, ok := d.(diag.DiagnosticWithPath)
				if !ok {
					t.Fatalf("diagnostic %q names no attribute", d.Summary())
				}

				got = append(got, withPath.Path().String())
			}

			assert.Equal(t, test.want, got)
		})
	}
}
