package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/image"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/network"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/securitygroup"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/sshcertificateauthority"
)

// Kinds of Object.
const (
	ObjectNetwork                 = network.ObjectKind
	ObjectSecurityGroup           = securitygroup.ObjectKind
	ObjectSSHCertificateAuthority = sshcertificateauthority.ObjectKind
	ObjectServer                  = "server"
	ObjectImage                   = image.ObjectKind
	ObjectAllocation              = core.ObjectAllocation
	ObjectInstance                = "instance"
	ObjectLoadBalancer            = "loadBalancer"
	ObjectFileStorage             = "fileStorage"
	ObjectProject                 = "project"
	ObjectGroup                   = "group"
	ObjectServiceAccount          = "serviceAccount"
	// ObjectUser is a user of an organization; identity keeps the global user behind
	// it when it leaves, so global users are not objects.
	ObjectUser = "user"
)
