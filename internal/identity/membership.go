package identity

import "slices"

// Membership between groups and service accounts is seen from two sides: identity
// keeps it on the group (`serviceAccountIDs`) and shows it on the service account
// (`groupIDs`), and a write of either side changes it. The rule that keeps the two
// from fighting: a group's list, when given, is the group's whole membership; a
// service account's list names only the groups it joins itself, and an update of it
// takes the account out of no group but those it named before and names no more.
// Memberships made from the groups' side are left as they are.

// Joined is what to send as a service account's groups: the groups it is in now
// (current), but for those it named before (named) and names no more, and the groups
// it names now (wanted).
func Joined(current, named, wanted []string) []string {
	var groups []string

	for _, id := range current {
		if slices.Contains(wanted, id) || !slices.Contains(named, id) {
			groups = append(groups, id)
		}
	}

	for _, id := range wanted {
		if !slices.Contains(groups, id) {
			groups = append(groups, id)
		}
	}

	slices.Sort(groups)

	return slices.Compact(groups)
}

// Named is what a service account names of the groups it is in: those of current
// that it named (named), the groups it joined itself. The others were joined from
// the groups' side.
func Named(current, named []string) []string {
	groups := []string{}

	for _, id := range current {
		if slices.Contains(named, id) {
			groups = append(groups, id)
		}
	}

	slices.Sort(groups)

	return groups
}
