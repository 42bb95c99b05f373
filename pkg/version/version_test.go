package version

import (
	"strings"
	"testing"
)

func TestRequested(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"serve"}, false},
		{[]string{"version"}, true},
		{[]string{"-version"}, true},
		{[]string{"--version"}, true},
		{[]string{"migrate", "version"}, false},
	} {
		if got := Requested(tc.args); got != tc.want {
			t.Errorf("Requested(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestStringNamesBinaryVersionAndCommit(t *testing.T) {
	oldV, oldC := Version, Commit
	t.Cleanup(func() { Version, Commit = oldV, oldC })
	Version, Commit = "1.2.3-dev.4+gabcdef0", "abcdef0123"
	s := String("api")
	if !strings.HasPrefix(s, "api 1.2.3-dev.4+gabcdef0 (commit abcdef0123, go") {
		t.Fatalf("String = %q", s)
	}
}
