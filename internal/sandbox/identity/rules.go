package identity

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"slices"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/sandbox/core"
)

// TokenLifetime is how long a service account's access token lives: identity's
// default, 90 days.
const TokenLifetime = 90 * 24 * time.Hour

// tokenPrefix marks a service account's access token, so that a bearer token can be
// told apart from the fixture users' at a glance.
const tokenPrefix = "sandbox-sa-"

// NewAccessToken draws a service account access token.
func NewAccessToken() string {
	secret := make([]byte, 24)
	_, _ = rand.Read(secret) // crypto/rand never fails on supported platforms.

	return tokenPrefix + base64.RawURLEncoding.EncodeToString(secret)
}

// IsAccessToken reports whether a bearer token has the form of a service account's.
func IsAccessToken(token string) bool {
	return len(token) > len(tokenPrefix) && token[:len(tokenPrefix)] == tokenPrefix
}

// Dedupe keeps the first of each ID in order, as identity does with the role, user
// and service account IDs of a group.
func Dedupe(ids []string) []string {
	if ids == nil {
		return nil
	}

	out := make([]string, 0, len(ids))

	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}

	return out
}

// ErrUsersAndSubjects is identity's refusal of a group that names its users both ways.
var ErrUsersAndSubjects = errors.New("cannot provide both subjects and userIDs")

// CheckMembers refuses a group write that gives both user IDs and subjects.
func CheckMembers(userIDs []string, subjects int) error {
	if len(userIDs) > 0 && subjects > 0 {
		return ErrUsersAndSubjects
	}

	return nil
}

// GroupsOf are the IDs of the groups that name the service account, in the groups'
// order: identity keeps membership on the groups and derives it for the account.
func GroupsOf(serviceAccountID string, groups []core.Group) []string {
	ids := []string{}

	for _, group := range groups {
		if slices.Contains(group.ServiceAccountIDs, serviceAccountID) {
			ids = append(ids, group.ID)
		}
	}

	return ids
}

// Membership is a group's service account list after the account asked to be in the
// groups wanted: added when the group is wanted, removed when not. Group IDs wanted
// that name no group are ignored, as identity ignores them. changed says whether the
// list differs.
func Membership(serviceAccountID string, group core.Group, wanted []string) (ids []string, changed bool) {
	member := slices.Contains(group.ServiceAccountIDs, serviceAccountID)

	switch want := slices.Contains(wanted, group.ID); {
	case want && !member:
		return append(slices.Clone(group.ServiceAccountIDs), serviceAccountID), true
	case !want && member:
		return slices.DeleteFunc(slices.Clone(group.ServiceAccountIDs), func(id string) bool { return id == serviceAccountID }), true
	default:
		return group.ServiceAccountIDs, false
	}
}

// WithoutGroup is a project's group list once the group is deleted: identity takes a
// deleted group out of every project that names it.
func WithoutGroup(groupIDs []string, groupID string) (ids []string, changed bool) {
	if !slices.Contains(groupIDs, groupID) {
		return groupIDs, false
	}

	return slices.DeleteFunc(slices.Clone(groupIDs), func(id string) bool { return id == groupID }), true
}
