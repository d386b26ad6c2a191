package load

import (
	"fmt"
	"io"
	"os"
)

// copyFile copies src to a new file dst (replacing one there) and checks
// that it copied size bytes, the size src had when the copy was decided:
// a file that is shorter or longer than that is being written by someone,
// and a copy of it would be torn. With durable, dst is on disk when it
// returns. On Linux the copy runs in the kernel (copy_file_range), which
// clones blocks on filesystems that can share them (XFS, Btrfs).
func copyFile(src, dst string, size int64, durable bool) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(dst)
		}
	}()
	n, err := io.Copy(out, in)
	if err != nil {
		return fmt.Errorf("copy %s: %w", src, err)
	}
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if n != size || fi.Size() != size {
		return fmt.Errorf("copy %s: expected %d bytes, copied %d and the file now has %d: it changed during the copy", src, size, n, fi.Size())
	}
	if durable {
		if err := out.Sync(); err != nil {
			return fmt.Errorf("sync %s: %w", dst, err)
		}
	}
	return nil
}

// syncDir makes the entries of dir (files created, renamed) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
