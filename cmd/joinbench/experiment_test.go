package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/joinbench/joinbench/experiment"
)

// The command's enum of lessons is the package's list.
func TestExperimentLessonsEnum(t *testing.T) {
	f, ok := reflect.TypeOf(experimentCmd{}).FieldByName("Lesson")
	if !ok {
		t.Fatal("no Lesson field")
	}
	if got, want := f.Tag.Get("enum"), strings.Join(experiment.LessonNames(), ","); got != want {
		t.Errorf("enum %q, want %q", got, want)
	}
}

func TestExperimentRefusesWithoutSandbox(t *testing.T) {
	code, _, stderr := runCapturedAll(t, "experiment", "slow-node")
	if code != 2 || !strings.Contains(stderr, "experiment needs a running sandbox") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Errorf("exit %d, %q; want 2 and one line", code, stderr)
	}
}
