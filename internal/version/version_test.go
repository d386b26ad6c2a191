package version

import (
	"runtime/debug"
	"testing"
)

func TestResolve(t *testing.T) {
	vcs := func(revision, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: revision}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		name    string
		stamped string
		info    *debug.BuildInfo
		want    string
	}{
		{"make build stamps git describe", "v0.1.0-3-gabcdef1-dirty", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v0.1.0-3-gabcdef1-dirty"},
		{"a stamp wins over the build information", "v0.2.0", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "v0.2.0"},
		{"go install of a release", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "v0.1.0"},
		{"go install of a commit", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.1-0.20260101120000-0123456789ab"}}, "v0.1.1-0.20260101120000-0123456789ab"},
		{"go build in a clone", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("0123456789abcdef0123456789abcdef01234567", "false")}, "0123456789ab"},
		{"go build in a changed clone", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("0123456789abcdef0123456789abcdef01234567", "true")}, "0123456789ab-dirty"},
		{"no git history", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"a blank stamp is no stamp", "  ", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "v0.1.0"},
		{"no build information", "", nil, "dev"},
	} {
		if got := Resolve(tc.stamped, tc.info); got != tc.want {
			t.Errorf("%s: Resolve = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A test binary has build information: Current answers from it without a
// stamp and never returns an empty version.
func TestCurrent(t *testing.T) {
	if got := Current("v9.9.9"); got != "v9.9.9" {
		t.Errorf("Current(stamp) = %q", got)
	}
	if got := Current(""); got == "" {
		t.Error("Current without a stamp is empty")
	}
}
