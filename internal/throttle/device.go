package throttle

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Device is a block device by its numbers, as cgroup files name it.
type Device struct{ Major, Minor uint32 }

func (d Device) String() string { return fmt.Sprintf("%d:%d", d.Major, d.Minor) }

// DeviceOf finds the disk that holds path: the device of its file system,
// or the whole disk when that is a partition (the kernel limits the I/O
// of whole disks). A path on no block device (tmpfs, overlay, a network
// file system) is an error saying so.
func DeviceOf(path string) (Device, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return Device{}, fmt.Errorf("%s: %w", path, err)
	}
	dev := uint64(st.Dev) //nolint:unconvert // int32 on some platforms
	d := Device{
		Major: uint32((dev>>8)&0xfff | (dev>>32)&^0xfff),
		Minor: uint32(dev&0xff | (dev>>12)&^0xff),
	}
	sys := sysPath("sys/dev/block/" + d.String())
	if _, err := os.Stat(sys); err != nil || d.Major == 0 {
		return Device{}, fmt.Errorf("%s is on no block device (device %s: tmpfs, overlay or a network file system?): its disk I/O cannot be limited", path, d)
	}
	if _, err := os.Stat(filepath.Join(sys, "partition")); err == nil {
		real, err := filepath.EvalSymlinks(sys)
		if err != nil {
			return Device{}, fmt.Errorf("%s: %w", sys, err)
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(real), "dev"))
		if err != nil {
			return Device{}, fmt.Errorf("the disk of partition %s: %w", d, err)
		}
		if _, err := fmt.Sscanf(strings.TrimSpace(string(b)), "%d:%d", &d.Major, &d.Minor); err != nil {
			return Device{}, fmt.Errorf("the disk of partition %s: %q", d, b)
		}
	}
	return d, nil
}
