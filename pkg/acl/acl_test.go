package acl

import "testing"

// TestEveryPermissionHasGroupAndTitle: the role editor shows every permission under
// a feature with a Persian label.
func TestEveryPermissionHasGroupAndTitle(t *testing.T) {
	seen := map[Permission]bool{}
	for _, g := range Groups {
		for _, p := range g.Permissions {
			if seen[p] {
				t.Errorf("%s is in two groups", p)
			}
			seen[p] = true
		}
	}
	for _, p := range All {
		if !seen[p] {
			t.Errorf("%s has no group", p)
		}
		if Titles[p] == "" {
			t.Errorf("%s has no title", p)
		}
	}
	if len(seen) != len(All) {
		t.Errorf("groups hold %d permissions, All has %d", len(seen), len(All))
	}
}
