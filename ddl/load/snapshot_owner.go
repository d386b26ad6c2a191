package load

import (
	"fmt"
	"os"
	"syscall"
)

// writable reports, as an error, why this process cannot create files in
// dir (nil when it can).
func writable(dir string) error {
	const wOK = 2
	return syscall.Access(dir, wOK)
}

// giveToOwnerOf makes path owned by the owner of dir: the server reads and
// rewrites an imported tablespace as its own user, which may not be the
// one copying it in (root, typically). Nothing to do when they are the
// same.
func giveToOwnerOf(path, dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	uid, gid := int(st.Uid), int(st.Gid)
	if uid == os.Geteuid() && gid == os.Getegid() {
		return nil
	}
	if err := os.Chown(path, uid, gid); err != nil {
		return fmt.Errorf("give %s to the server's user (uid %d, gid %d, the owner of %s): %w; run as that user or as root", path, uid, gid, dir, err)
	}
	return nil
}
