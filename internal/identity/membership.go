package identity

import "slices"

// Membership between groups and their members, service accounts and users, is seen
// from two sides: identity keeps it on the group (`serviceAccountIDs`, `userIDs`) and
// shows it on the member (`groupIDs`), and a write of either side changes it: a
// member's create or update rewrites every group of the organization, adding the member
// to the groups it names and taking it out of the others (identity's updateGroups in
// pkg/handler/users and pkg/handler/serviceaccounts). The rule that
// keeps the two from fighting: a group's list, when given, is the group's whole
// membership; a member's list names only the groups it joins itself, and an update of
// it takes the member out of no group but those it named before and names no more.
// Memberships made from the groups' side are left as they are.

// Joined is what to send as a member's groups: the groups it is in now
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

// Named is what a member names of the groups it is in: those of current
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
