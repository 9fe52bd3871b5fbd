package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/compute/instance"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/allocations"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/groups"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/oauth2"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/oauth2providers"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/organizations"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/projects"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/quotas"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/rbac"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/roles"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/serviceaccounts"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/users"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/kubernetes/cluster"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/loadbalancer"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/network"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/region"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/securitygroup"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/server"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/sshcertificateauthority"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/storage"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/volumes"
)

// families are every family of every service the sandbox serves, one line each, in
// the order they register: a family's fixtures, migrations and advances come after
// those of the families before it (a network's security groups after its network, a
// group's members after the users), and the fixture principals are asked about a
// token before service accounts are.
func families() []core.Family {
	return []core.Family{
		organizations.Family,
		users.Family,
		roles.Family,
		rbac.Family,
		serviceaccounts.Family,
		groups.Family,
		projects.Family,
		quotas.Family,
		allocations.Family,
		oauth2providers.Family,
		oauth2.Family,
		region.Family,
		network.Family,
		securitygroup.Family,
		sshcertificateauthority.Family,
		image.Family,
		server.Family,
		loadbalancer.Family,
		storage.Family,
		volumes.Family,
		instance.Family,
		cluster.Family,
	}
}
