package version

import (
	"runtime/debug"
	"strings"
)

// unknown is what a build reports when nothing says which it is: a plain
// go build of a copy of the source without its git history.
const unknown = "dev"

// Current returns this binary's version: stamped when the build stamped
// one (make build and the container image pass -ldflags "-X
// main.version=..."), else what the Go build information says.
func Current(stamped string) string {
	info, _ := debug.ReadBuildInfo()
	return Resolve(stamped, info)
}

// Resolve picks the version from a build-time stamp and the build
// information, in this order: the stamp; the main module's version (a
// release or pseudo-version for go install module@version, and, since Go
// 1.24, one derived from the git tags for a go build in a clone); the git
// revision, with -dirty when the tree had local changes (the form git
// describe --always gives); else "dev".
func Resolve(stamped string, info *debug.BuildInfo) string {
	if v := strings.TrimSpace(stamped); v != "" {
		return v
	}
	if info == nil {
		return unknown
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var revision string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if revision == "" {
		return unknown
	}
	if len(revision) > 12 {
		revision = revision[:12]
	}
	if modified {
		revision += "-dirty"
	}
	return revision
}
