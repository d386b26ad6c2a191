package sandbox

import (
	"testing"

	"github.com/joinbench/joinbench/internal/usage"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"16M": 16 << 20, "1g": 1 << 30, "512K": 512 << 10, "1048576": 1 << 20, " 2G ": 2 << 30} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "M", "16MB", "-1M", "0", "1.5G", "99999999999T"} {
		if _, err := ParseSize(bad); err == nil || !usage.Is(err) {
			t.Errorf("ParseSize(%q): %v, want a usage error", bad, err)
		}
	}
	for n, want := range map[int64]string{16 << 20: "16M", 1 << 30: "1G", 1536 << 20: "1536M", 1000: "1000"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %s, want %s", n, got, want)
		}
	}
}
