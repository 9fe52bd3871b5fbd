package sandbox

import (
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/fixture"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/identity/oauth2providers"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/region/region"
)

// Fixture IDs, tokens and subjects: present at every fresh start, so tests, examples
// and documentation can name them (package fixture says what each is).
const (
	OrganizationID              = fixture.OrganizationID
	ProjectID                   = fixture.ProjectID
	OtherProjectID              = fixture.OtherProjectID
	ForeignOrganizationID       = fixture.ForeignOrganizationID
	ForeignProjectID            = fixture.ForeignProjectID
	EmptyOrganizationID         = fixture.EmptyOrganizationID
	UserID                      = fixture.UserID
	AdminUserID                 = fixture.AdminUserID
	ForeignUserID               = fixture.ForeignUserID
	EmptyAdminUserID            = fixture.EmptyAdminUserID
	UserSubject                 = fixture.UserSubject
	AdminSubject                = fixture.AdminSubject
	ForeignSubject              = fixture.ForeignSubject
	OutsiderSubject             = fixture.OutsiderSubject
	AdministratorsGroupID       = fixture.AdministratorsGroupID
	EmptyAdministratorsGroupID  = fixture.EmptyAdministratorsGroupID
	AdministratorRoleID         = fixture.AdministratorRoleID
	AuditorRoleID               = fixture.AuditorRoleID
	UserRoleID                  = fixture.UserRoleID
	ReaderRoleID                = fixture.ReaderRoleID
	RegionID                    = fixture.RegionID
	PrivateRegionID             = fixture.PrivateRegionID
	RemoteRegionID              = fixture.RemoteRegionID
	NetworkDefaultID            = fixture.NetworkDefaultID
	NetworkSecondaryID          = fixture.NetworkSecondaryID
	NetworkOtherID              = fixture.NetworkOtherID
	SecurityGroupAllowSSHID     = fixture.SecurityGroupAllowSSHID
	SecurityGroupAllowWebID     = fixture.SecurityGroupAllowWebID
	SecurityGroupSecondarySSHID = fixture.SecurityGroupSecondarySSHID
	SSHCAID                     = fixture.SSHCAID
	OtherSSHCAID                = fixture.OtherSSHCAID
	FlavorStandardID            = fixture.FlavorStandardID
	FlavorGPUID                 = fixture.FlavorGPUID
	FlavorArmID                 = fixture.FlavorArmID
	FlavorMetalID               = fixture.FlavorMetalID
	FlavorTinyID                = fixture.FlavorTinyID
	ImageUbuntuID               = fixture.ImageUbuntuID
	ImageUbuntuGPUID            = fixture.ImageUbuntuGPUID
	ImageUbuntuArmID            = fixture.ImageUbuntuArmID
	ImageUbuntuMetalID          = fixture.ImageUbuntuMetalID
	ImageDebianID               = fixture.ImageDebianID
	ImageKubernetesID           = fixture.ImageKubernetesID
	ImageKubernetesArmID        = fixture.ImageKubernetesArmID
	ImageKubernetesOlderID      = fixture.ImageKubernetesOlderID
	KubernetesVersion           = fixture.KubernetesVersion
	KubernetesOlderVersion      = fixture.KubernetesOlderVersion
	StorageClassStandardID      = fixture.StorageClassStandardID
	StorageClassLegacyID        = fixture.StorageClassLegacyID
	StorageClassDedicatedID     = fixture.StorageClassDedicatedID
	StorageClassForeignID       = fixture.StorageClassForeignID
	StorageClassRemoteID        = fixture.StorageClassRemoteID
	VolumeClassStandardID       = fixture.VolumeClassStandardID
	VolumeClassFastID           = fixture.VolumeClassFastID
	VolumeClassPrivateID        = fixture.VolumeClassPrivateID
	DefaultToken                = fixture.DefaultToken
	OutsiderToken               = fixture.OutsiderToken
	ForeignToken                = fixture.ForeignToken
	ServiceToken                = fixture.ServiceToken
	KubernetesServiceToken      = fixture.KubernetesServiceToken
	AdminToken                  = fixture.AdminToken
	PlatformAdminToken          = fixture.PlatformAdminToken

	// PlatformOAuth2ProviderID is the platform's OAuth2 provider: where the sandbox's
	// users sign in, the issuer their group subjects name.
	PlatformOAuth2ProviderID = oauth2providers.PlatformOAuth2ProviderID
)

// RegionPrefix is region's own base URL on the sandbox's listener.
const RegionPrefix = region.Prefix
