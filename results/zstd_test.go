package results

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Pages compressed concurrently decode, with parquet-go's own codec, to
// what was compressed; encoders are reused rather than made per page.
func TestZstdCodec(t *testing.T) {
	c := newZstdCodec(zstd.SpeedFastest)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var dst, out []byte
			for i := range 50 {
				src := bytes.Repeat([]byte(fmt.Sprintf("page %d of %d;", i, g)), 1000+i*100)
				var err error
				if dst, err = c.Encode(dst, src); err != nil {
					errs <- err
					return
				}
				if out, err = (&zstd.Codec{}).Decode(out, dst); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(out, src) {
					errs <- fmt.Errorf("goroutine %d page %d: round trip differs", g, i)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := len(c.free); n < 1 || n > 4 {
		t.Errorf("%d encoders kept, want 1 to 4 (one per concurrent page at most)", n)
	}
	if c.String() != "ZSTD" {
		t.Errorf("String() = %q", c.String())
	}
}
