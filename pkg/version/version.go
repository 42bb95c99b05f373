// Package version holds the release the binaries were built from. scripts/dist.sh
// (and `make build`) set Version and Commit with -ldflags "-X …"; a plain `go build`
// or `go run` leaves Version "dev" and takes the commit from the Go toolchain's
// build information. Every binary prints it for `version`, `-version` or
// `--version` (config.Main), and the API reports it at /healthz.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Version is the release: the repository's VERSION file, with a
// "-dev.<commits>+g<hash>" suffix for a build that is not exactly a release
// (scripts/version.sh). Set at link time.
var Version = "dev"

// Commit is the full git commit hash the binary was built from. Set at link
// time; empty, it is read from the build information when the toolchain
// recorded it.
var Commit = ""

// CommitHash returns Commit, or the vcs.revision of the build information
// (with "-dirty" when the tree had uncommitted changes), or "unknown".
func CommitHash() string {
	if Commit != "" {
		return Commit
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "unknown"
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}

// String is the one-line description a binary prints for `version`:
// "<name> <version> (commit <hash>, <go version> <os>/<arch>)".
func String(name string) string {
	return fmt.Sprintf("%s %s (commit %s, %s %s/%s)", name, Version, CommitHash(),
		runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// Requested reports whether the command-line arguments (without the program
// name) ask for the version: a first argument of "version", "-version" or
// "--version".
func Requested(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "version", "-version", "--version":
		return true
	}
	return false
}
