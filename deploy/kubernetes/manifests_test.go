package kubernetes

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"
)

// decodeStrict decodes one YAML manifest into v, refusing unknown or
// duplicate fields: a misspelt key fails here rather than being ignored by
// the cluster.
func decodeStrict(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("\n---")) {
		t.Fatalf("%s: one object per file", name)
	}
	if err := yaml.UnmarshalStrict(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func TestEveryManifestIsChecked(t *testing.T) {
	files, _ := filepath.Glob("*.yaml")
	checked := map[string]bool{"prepare-job.yaml": true, "run-job.yaml": true, "results-pvc.yaml": true, "secret.example.yaml": true, "kustomization.yaml": true}
	for _, f := range files {
		if !checked[f] {
			t.Errorf("%s is not checked by a test", f)
		}
	}
}

func env(c corev1.Container, name string) *corev1.EnvVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}

// checkJob checks what a split prepare or run needs of its Job: Indexed,
// every pod at once, as many segments as completions, the password from
// the Secret, a non-root pod, a CPU request.
func checkJob(t *testing.T, name, command string) (*batchv1.Job, corev1.Container) {
	var j batchv1.Job
	decodeStrict(t, name, &j)
	if j.Kind != "Job" || j.APIVersion != "batch/v1" {
		t.Fatalf("%s: %s %s, want a batch/v1 Job", name, j.APIVersion, j.Kind)
	}
	s := j.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("%s: completionMode must be Indexed", name)
	}
	if s.Completions == nil || s.Parallelism == nil || *s.Completions != *s.Parallelism {
		t.Errorf("%s: completions and parallelism must be set and equal (every segment at once)", name)
	}
	if len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("%s: want one container", name)
	}
	c := s.Template.Spec.Containers[0]
	if len(c.Args) == 0 || c.Args[0] != command {
		t.Errorf("%s: args %v, want joinbench %s", name, c.Args, command)
	}
	if e := env(c, "JOINBENCH_SEGMENTS"); e == nil || s.Completions == nil || e.Value != strconv.Itoa(int(*s.Completions)) {
		t.Errorf("%s: JOINBENCH_SEGMENTS must equal completions", name)
	}
	if e := env(c, "JOINBENCH_PASSWORD"); e == nil || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil ||
		e.ValueFrom.SecretKeyRef.Name != "joinbench-db" || e.ValueFrom.SecretKeyRef.Key != "password" {
		t.Errorf("%s: JOINBENCH_PASSWORD must come from the Secret joinbench-db, key password", name)
	}
	for _, a := range c.Args {
		if strings.Contains(a, "password") || strings.Contains(a, "--segment") {
			t.Errorf("%s: argument %q: the password comes from the Secret, the segment from the Job", name, a)
		}
	}
	psc := s.Template.Spec.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
		t.Errorf("%s: the pod must run as non-root", name)
	}
	if s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("%s: restartPolicy must be Never (the Job retries failed segments)", name)
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
		t.Errorf("%s: cpu and memory requests must be set", name)
	}
	if c.Resources.Limits.Memory().Cmp(*c.Resources.Requests.Memory()) < 0 {
		t.Errorf("%s: memory limit below the request", name)
	}
	return &j, c
}

func TestPrepareJob(t *testing.T) {
	checkJob(t, "prepare-job.yaml", "prepare")
}

func TestRunJob(t *testing.T) {
	j, c := checkJob(t, "run-job.yaml", "run")
	var runID, out bool
	for _, a := range c.Args {
		runID = runID || strings.HasPrefix(a, "--run-id=")
		out = out || a == "--out=/results"
	}
	if !runID || !out {
		t.Errorf("run-job.yaml: every segment needs the same --run-id and --out=/results")
	}
	vols := j.Spec.Template.Spec.Volumes
	if len(vols) != 1 || vols[0].PersistentVolumeClaim == nil || vols[0].PersistentVolumeClaim.ClaimName != "joinbench-results" {
		t.Errorf("run-job.yaml: results must be on the claim joinbench-results")
	}
	if len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != "/results" {
		t.Errorf("run-job.yaml: the claim must be mounted at /results")
	}
}

func TestResultsClaim(t *testing.T) {
	var pvc corev1.PersistentVolumeClaim
	decodeStrict(t, "results-pvc.yaml", &pvc)
	if pvc.Kind != "PersistentVolumeClaim" || len(pvc.Spec.AccessModes) != 1 || pvc.Spec.AccessModes[0] != corev1.ReadWriteMany {
		t.Errorf("results-pvc.yaml: want a ReadWriteMany PersistentVolumeClaim, every segment writes to it")
	}
	if q := pvc.Spec.Resources.Requests[corev1.ResourceStorage]; q.Cmp(resource.MustParse("1Gi")) < 0 {
		t.Errorf("results-pvc.yaml: storage request %s", q.String())
	}
}

func TestSecretExample(t *testing.T) {
	var s corev1.Secret
	decodeStrict(t, "secret.example.yaml", &s)
	if s.Kind != "Secret" || s.Name != "joinbench-db" || s.StringData["password"] == "" {
		t.Errorf("secret.example.yaml: want the Secret joinbench-db with a password key")
	}
}

// A misspelt field is caught: the decoding is strict.
func TestStrictDecodingCatchesTypos(t *testing.T) {
	var j batchv1.Job
	bad := []byte("apiVersion: batch/v1\nkind: Job\nspec:\n  completionMod: Indexed\n")
	if err := yaml.UnmarshalStrict(bad, &j); err == nil {
		t.Fatal("completionMod was accepted")
	}
}
