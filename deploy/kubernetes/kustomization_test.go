package kubernetes

import (
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// imageName is the name every manifest gives joinbench's image, so that
// kustomization.yaml's images: entry is the one place a user sets it.
const imageName = "joinbench"

func TestKustomizationNamesTheImageOnce(t *testing.T) {
	var k types.Kustomization
	decodeStrict(t, "kustomization.yaml", &k)
	if len(k.Images) != 1 || k.Images[0].Name != imageName || k.Images[0].NewName == "" || k.Images[0].NewTag == "" {
		t.Fatalf("kustomization.yaml: want one images: entry for %q with newName and newTag, have %+v", imageName, k.Images)
	}
	for _, f := range []string{"results-pvc.yaml", "prepare-job.yaml", "run-job.yaml"} {
		if !slices.Contains(k.Resources, f) {
			t.Errorf("kustomization.yaml: %s is not among the resources", f)
		}
	}
	if slices.Contains(k.Resources, "secret.example.yaml") {
		t.Error("kustomization.yaml: the example Secret must not be applied: its password is a placeholder")
	}
	for _, f := range []string{"prepare-job.yaml", "run-job.yaml"} {
		var j batchv1.Job
		decodeStrict(t, f, &j)
		for _, c := range j.Spec.Template.Spec.Containers {
			if c.Image != imageName {
				t.Errorf("%s: container %s has image %q, want %q (the tag and registry are set in kustomization.yaml)", f, c.Name, c.Image, imageName)
			}
		}
	}
}

// Rendering the kustomization as kubectl apply -k does gives every
// container the image of the images: entry, and every object the
// component label by which the steps are applied one at a time.
func TestKustomizationRenders(t *testing.T) {
	var k types.Kustomization
	decodeStrict(t, "kustomization.yaml", &k)
	want := k.Images[0].NewName + ":" + k.Images[0].NewTag

	resources, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), ".")
	if err != nil {
		t.Fatalf("kustomize build: %v", err)
	}
	components := map[string]string{}
	for _, r := range resources.Resources() {
		labels := r.GetLabels()
		if labels["app.kubernetes.io/name"] != "joinbench" || labels["app.kubernetes.io/component"] == "" {
			t.Errorf("%s %s: labels %v, want app.kubernetes.io/name=joinbench and a component", r.GetKind(), r.GetName(), labels)
		}
		if other, dup := components[labels["app.kubernetes.io/component"]]; dup {
			t.Errorf("%s and %s share a component label: one step would apply both", other, r.GetName())
		}
		components[labels["app.kubernetes.io/component"]] = r.GetName()
		if r.GetKind() != "Job" {
			continue
		}
		b, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		var j batchv1.Job
		if err := yaml.UnmarshalStrict(b, &j); err != nil {
			t.Fatalf("rendered %s: %v", r.GetName(), err)
		}
		for _, c := range j.Spec.Template.Spec.Containers {
			if c.Image != want {
				t.Errorf("rendered %s: container %s has image %q, want %q", r.GetName(), c.Name, c.Image, want)
			}
			if c.ImagePullPolicy == corev1.PullAlways || strings.HasSuffix(c.Image, ":latest") {
				t.Errorf("rendered %s: a pinned tag, pulled if not present, lets a loaded image archive serve", r.GetName())
			}
		}
	}
	for _, c := range []string{"results", "prepare", "run"} {
		if components[c] == "" {
			t.Errorf("no object has app.kubernetes.io/component=%s", c)
		}
	}
}
