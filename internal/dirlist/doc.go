// Package dirlist lists the folders of a store that keeps one folder per
// thing (named sandboxes, snapshots), so that every store reads its folder
// the same way.
//
// It knows nothing of what the folders hold and links no driver: ddl/load,
// which must stay driver-free for its callers' sake, uses it as well as the
// sandbox package.
package dirlist
