package usage

import (
	"errors"
	"fmt"
	"testing"
)

func TestIsThroughWrapping(t *testing.T) {
	base := Errorf("bad --threads %d", 0)
	wrapped := fmt.Errorf("prepare: %w", base)
	if !Is(wrapped) {
		t.Fatalf("Is(%v) = false, want true", wrapped)
	}
	if Is(errors.New("server gone")) {
		t.Fatal("a plain error must not count as a user error")
	}
	if Wrap(nil) != nil {
		t.Fatal("Wrap(nil) must be nil")
	}
	if got := wrapped.Error(); got != "prepare: bad --threads 0" {
		t.Fatalf("message = %q", got)
	}
}
