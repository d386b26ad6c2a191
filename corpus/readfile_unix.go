//go:build unix

package corpus

import (
	"io/fs"
	"syscall"
)

// readFile reads the whole file at path into a string, using buf (grown
// as needed and returned for the next file) as scratch. It is
// os.ReadFile with the system calls cut down: an open, reads until end
// of file and a close, where os.ReadFile also asks the size (fstat) and
// os.Open sets the descriptor up for the network poller (fcntl, and an
// epoll_ctl that fails for a regular file). Over a corpus of thousands of
// small files those were most of the time spent reading. Errors are
// os.ReadFile's: a *fs.PathError naming the operation and path.
func readFile(path string, buf []byte) (string, []byte, error) {
	var fd int
	for {
		var err error
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return "", buf, &fs.PathError{Op: "open", Path: path, Err: err}
		}
	}
	defer syscall.Close(fd)
	if cap(buf) < minReadBuf {
		buf = make([]byte, minReadBuf)
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		if n == len(buf) {
			buf = append(buf, make([]byte, len(buf))...)
			buf = buf[:cap(buf)]
		}
		k, err := syscall.Read(fd, buf[n:])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return "", buf, &fs.PathError{Op: "read", Path: path, Err: err}
		case k == 0:
			return string(buf[:n]), buf, nil
		}
		n += k
	}
}

// minReadBuf is readFile's first scratch buffer: scenario files are a
// few kilobytes.
const minReadBuf = 64 << 10
