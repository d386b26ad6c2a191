package ingest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"

	"github.com/joinbench/joinbench/internal/usage"
)

// Formats are the kinds of file an import reads.
const (
	FormatAuto    = "auto"
	FormatSlow    = "slow"
	FormatGeneral = "general"
	FormatDigest  = "digest"
)

// Source kinds as a group's description names them.
const (
	sourceSlow    = "slow log"
	sourceGeneral = "general log"
	sourceDigest  = "performance_schema digest"
)

// DetectFormat tells a slow log, a general log and a digest dump apart by
// their first lines.
func DetectFormat(head []byte) string {
	first, _, _ := bytes.Cut(head, []byte("\n"))
	switch {
	case bytes.Contains(first, []byte("DIGEST_TEXT")):
		return FormatDigest
	case bytes.Contains(head, []byte("# Query_time:")) || bytes.Contains(head, []byte("# User@Host:")):
		return FormatSlow
	}
	sc := bufio.NewScanner(bytes.NewReader(head))
	for sc.Scan() {
		if generalEntry.MatchString(sc.Text()) {
			return FormatGeneral
		}
	}
	return ""
}

// ReadFile reads one file into the set: a slow log, a general log or a
// dump of the digest table (format auto tells them apart), gzipped or
// not.
func (s *Set) ReadFile(path, format string) error {
	f, err := os.Open(path)
	if err != nil {
		return usage.Errorf("%v", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		// A rotated log, gzipped.
		zr, err := gzip.NewReader(br)
		if err != nil {
			return usage.Errorf("%s: %v", path, err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<20)
	}
	if format == "" || format == FormatAuto {
		head, _ := br.Peek(256 << 10)
		if format = DetectFormat(head); format == "" {
			return usage.Errorf("%s:1: neither a slow log, a general log nor a dump of the digest table (give --log-format)", path)
		}
	}
	var r io.Reader = br
	switch format {
	case FormatSlow:
		return ReadSlowLog(r, path, func(st Statement) error { s.AddStatement(st, sourceSlow); return nil })
	case FormatGeneral:
		return ReadGeneralLog(r, path, func(st Statement) error { s.AddStatement(st, sourceGeneral); return nil })
	case FormatDigest:
		err := ReadDigestTSV(r, path, func(row DigestRow) error { s.AddDigest(row); return nil })
		if err != nil && strings.HasPrefix(err.Error(), path+":") {
			return usage.Errorf("%v", err)
		}
		return err
	}
	return usage.Errorf("--log-format %q: use auto, slow, general or digest", format)
}
