// Package kubernetes holds joinbench's Kubernetes manifests (the YAML
// files of this folder, with kustomization.yaml the one place that names
// the image) and the tests that check them offline: by decoding them
// strictly into the Kubernetes and kustomize API types, and by rendering
// the kustomization as kubectl apply -k does. It is a module of its own
// so that joinbench itself does not depend on the Kubernetes libraries.
package kubernetes
