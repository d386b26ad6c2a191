package results

import (
	"sync"

	kzstd "github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
)

// zstdWindow bounds how far back a match may reach. Pages are compressed
// one by one; data pages are about pageBufferSize (128 KiB) at most, a
// dictionary page can be larger, and a window beyond the largest page
// finds nothing more and only costs memory.
const zstdWindow = 1 << 20

// zstdCodec is Parquet's ZSTD compression with encoders that live as long
// as the codec.
//
// parquet-go keeps its zstd encoders in a sync.Pool, which every other
// garbage collection empties. A new encoder allocates its history buffer
// (16 MiB at the default window) on its first page, so a busy run
// allocated and zeroed fresh megabytes every few seconds, at a cost to the
// writer second only to the encoding (bench/README.md, "Writing and
// reading results"). Here encoders are kept on a free list and their
// window fits the pages.
type zstdCodec struct {
	level kzstd.EncoderLevel
	dec   zstd.Codec // decoding as parquet-go does it

	mu   sync.Mutex
	free []*kzstd.Encoder
}

var _ compress.Codec = (*zstdCodec)(nil)

func newZstdCodec(level kzstd.EncoderLevel) *zstdCodec {
	return &zstdCodec{level: level}
}

func (c *zstdCodec) String() string { return "ZSTD" }

func (c *zstdCodec) CompressionCodec() format.CompressionCodec { return format.Zstd }

func (c *zstdCodec) Encode(dst, src []byte) ([]byte, error) {
	c.mu.Lock()
	var e *kzstd.Encoder
	if n := len(c.free); n > 0 {
		e = c.free[n-1]
		c.free = c.free[:n-1]
	}
	c.mu.Unlock()
	if e == nil {
		var err error
		e, err = kzstd.NewWriter(nil,
			kzstd.WithEncoderConcurrency(1),
			kzstd.WithEncoderLevel(c.level),
			kzstd.WithWindowSize(zstdWindow),
			kzstd.WithZeroFrames(true),
			kzstd.WithEncoderCRC(false),
		)
		if err != nil {
			return dst, err
		}
	}
	dst = e.EncodeAll(src, dst[:0])
	c.mu.Lock()
	c.free = append(c.free, e)
	c.mu.Unlock()
	return dst, nil
}

func (c *zstdCodec) Decode(dst, src []byte) ([]byte, error) {
	return c.dec.Decode(dst, src)
}
