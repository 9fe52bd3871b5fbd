package loadbalancing_test

import (
	"strings"
	"testing"
	"text/template"

	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
)

// lb is a load balancer's configuration, rendered by lbTemplate. An empty field is
// left out of the configuration, so that what Terraform defaults can be tested too.
type lb struct {
	Label       string
	Name        string
	Description string
	Tags        map[string]string
	// NetworkID is an HCL expression, e.g. a quoted ID or unikorn_network.x.id.
	NetworkID string
	VIP       string
	PublicIP  *bool
	Listeners []listener
}

type listener struct {
	Name     string
	Protocol string
	Port     int
	// AllowedCIDRs is left out when nil and written `[]` when empty.
	AllowedCIDRs []string
	Idle         int
	Proxy        *bool
	// Members is left out when nil; MembersExpr, when set, is written instead.
	Members     []member
	MembersExpr string
	HealthCheck *healthCheck
}

type member struct {
	Address string
	Port    int
}

type healthCheck struct {
	Interval, Timeout, Healthy, Unhealthy int
}

var lbTemplate = template.Must(template.New("lb").Funcs(template.FuncMap{"q": acctest.Quote}).Parse(`
resource "unikorn_load_balancer" {{q .Label}} {
  name       = {{q .Name}}
  network_id = {{.NetworkID}}
{{- with .Description}}
  description = {{q .}}
{{- end}}
{{- with .Tags}}
  tags = { {{range $k, $v := .}}{{q $k}} = {{q $v}}, {{end}}}
{{- end}}
{{- with .VIP}}
  vip_address = {{q .}}
{{- end}}
{{- with .PublicIP}}
  public_ip_enabled = {{.}}
{{- end}}

  listeners = {
{{- range .Listeners}}
    {{q .Name}} = {
      protocol = {{q .Protocol}}
      port     = {{.Port}}
{{- if .AllowedCIDRs}}
      allowed_cidrs = [{{range .AllowedCIDRs}}{{q .}}, {{end}}]
{{- else if ne .AllowedCIDRs nil}}
      allowed_cidrs = []
{{- end}}
{{- with .Idle}}
      idle_timeout_seconds = {{.}}
{{- end}}
{{- with .Proxy}}
      proxy_protocol_v2 = {{.}}
{{- end}}
{{- if .MembersExpr}}
      members = {{.MembersExpr}}
{{- else if ne .Members nil}}
      members = [{{range .Members}}{ address = {{q .Address}}, port = {{.Port}} }, {{end}}]
{{- end}}
{{- with .HealthCheck}}
      health_check = {
{{- with .Interval}}
        interval_seconds = {{.}}
{{- end}}
{{- with .Timeout}}
        timeout_seconds = {{.}}
{{- end}}
{{- with .Healthy}}
        healthy_threshold = {{.}}
{{- end}}
{{- with .Unhealthy}}
        unhealthy_threshold = {{.}}
{{- end}}
      }
{{- end}}
    }
{{- end}}
  }
}
`))

// render writes load balancers as configuration.
func render(t *testing.T, lbs ...lb) string {
	t.Helper()

	var b strings.Builder

	for _, l := range lbs {
		if l.Label == "" {
			l.Label = "this"
		}

		require.NoError(t, lbTemplate.Execute(&b, l))
	}

	return b.String()
}

func boolean(b bool) *bool { return &b }

// web is the usual first listener: TCP port 80 to two members on the default network.
func web() listener {
	return listener{
		Name: "web", Protocol: "tcp", Port: 80,
		Members: []member{{"10.0.0.21", 8080}, {"10.0.0.22", 8080}},
	}
}
