// Package kubernetes holds joinbench's Kubernetes manifests (the YAML
// files of this folder) and the test that checks them offline, by
// decoding them strictly into the Kubernetes API types. It is a module of
// its own so that joinbench itself does not depend on the Kubernetes
// libraries.
package kubernetes
