package load

import (
	"encoding/hex"
	"fmt"
	"hash/crc32"
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

// castagnoli is CRC-32C's table: amd64 and arm64 compute it in hardware,
// so checksumming a file costs little more than reading it.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// fileChecksum is the CRC-32C of the file at path, in hex. It detects the
// damage a file suffers at rest (zeroed or flipped bits, a cut end); it is
// no defence against someone who edits the manifest too.
func fileChecksum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := crc32.New(castagnoli)
	if _, err := io.CopyBuffer(h, f, make([]byte, 1<<20)); err != nil {
		return "", fmt.Errorf("checksum %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
