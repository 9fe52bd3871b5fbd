package networking_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/networking"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

func inProject(name string) networking.Selector {
	return networking.Selector{Name: name, OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.ProjectID}
}

func TestLookupByIDAndByName(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	ctx := t.Context()

	byID, err := e.service.Network(ctx, networking.Selector{ID: sandbox.NetworkSecondaryID})
	require.NoError(t, err)
	assert.Equal(t, "secondary", byID.Metadata.Name)

	byName, err := e.service.Network(ctx, inProject("secondary"))
	require.NoError(t, err)
	assert.Equal(t, sandbox.NetworkSecondaryID, byName.Metadata.ID)

	group, err := e.service.SecurityGroup(ctx, inProject("allow-web"))
	require.NoError(t, err)
	assert.Equal(t, sandbox.SecurityGroupAllowWebID, group.Metadata.ID)

	authority, err := e.service.SSHCertificateAuthority(ctx, networking.Selector{ID: sandbox.SSHCAID})
	require.NoError(t, err)
	assert.Equal(t, "sandbox-ca", authority.Metadata.Name)
}

func TestLookupByNameStaysInTheProject(t *testing.T) {
	t.Parallel()

	e := newEnv(t)

	// "other" exists, but in the other project.
	_, err := e.service.Network(t.Context(), inProject("other"))

	var lookupErr *networking.LookupError
	require.ErrorAs(t, err, &lookupErr)
	assert.Empty(t, lookupErr.Matches)
	assert.Equal(t, `no network is named "other" in project `+sandbox.ProjectID+" of organization "+sandbox.OrganizationID, err.Error())

	authority, err := e.service.SSHCertificateAuthority(t.Context(), networking.Selector{
		Name: "other-ca", OrganizationID: sandbox.OrganizationID, ProjectID: sandbox.OtherProjectID,
	})
	require.NoError(t, err)
	assert.Equal(t, sandbox.OtherSSHCAID, authority.Metadata.ID)
}

func TestLookupByIDOfNothing(t *testing.T) {
	t.Parallel()

	e := newEnv(t)

	const absent = "c0000000-0000-4000-8000-0000000000ff"

	_, err := e.service.Network(t.Context(), networking.Selector{ID: absent, Name: "default"})

	var lookupErr *networking.LookupError
	require.ErrorAs(t, err, &lookupErr)
	assert.Equal(t, "network "+absent+" does not exist or is not visible to these credentials", err.Error())
}

// TestLookupByNameMustBeUnambiguous gives a second network's security group the name
// of one on the default network: the name alone then names two, and the network
// tells them apart.
func TestLookupByNameMustBeUnambiguous(t *testing.T) {
	t.Parallel()

	e := newEnv(t)
	ctx := t.Context()

	twin, err := e.client.CreateSecurityGroup(ctx, unikorn.SecurityGroupCreate{
		Metadata: unikorn.WriteMetadata{Name: "allow-ssh"},
		Spec: unikorn.SecurityGroupCreateSpec{
			SecurityGroupSpec: unikorn.SecurityGroupSpec{Rules: []unikorn.SecurityGroupRule{}},
			NetworkID:         sandbox.NetworkSecondaryID,
		},
	})
	require.NoError(t, err)

	_, err = e.service.SecurityGroup(ctx, inProject("allow-ssh"))

	var lookupErr *networking.LookupError
	require.ErrorAs(t, err, &lookupErr)
	assert.ElementsMatch(t, []string{sandbox.SecurityGroupAllowSSHID, twin.Metadata.ID}, lookupErr.Matches)
	assert.Contains(t, err.Error(), `the name "allow-ssh" does not say which security group is meant: 2 in project `)
	assert.Contains(t, err.Error(), sandbox.SecurityGroupAllowSSHID)
	assert.Contains(t, err.Error(), twin.Metadata.ID)

	onNetwork := inProject("allow-ssh")
	onNetwork.NetworkID = sandbox.NetworkSecondaryID

	group, err := e.service.SecurityGroup(ctx, onNetwork)
	require.NoError(t, err)
	assert.Equal(t, twin.Metadata.ID, group.Metadata.ID)
}
