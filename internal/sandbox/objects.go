package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/compute/instance"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/groups"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/projects"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/serviceaccounts"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/users"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/loadbalancer"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/network"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/securitygroup"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/server"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/sshcertificateauthority"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/storage"
)

// Kinds of Object.
const (
	ObjectNetwork                 = network.ObjectKind
	ObjectSecurityGroup           = securitygroup.ObjectKind
	ObjectSSHCertificateAuthority = sshcertificateauthority.ObjectKind
	ObjectServer                  = server.ObjectKind
	ObjectImage                   = image.ObjectKind
	ObjectAllocation              = core.ObjectAllocation
	ObjectInstance                = instance.ObjectKind
	ObjectLoadBalancer            = loadbalancer.ObjectKind
	ObjectFileStorage             = storage.ObjectKind
	ObjectProject                 = projects.ObjectKind
	ObjectGroup                   = groups.ObjectKind
	ObjectServiceAccount          = serviceaccounts.ObjectKind
	// ObjectUser is a user of an organization; identity keeps the global user behind
	// it when it leaves, so global users are not objects.
	ObjectUser = users.ObjectKind
)
