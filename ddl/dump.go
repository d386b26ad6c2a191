package ddl

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// DumpTSV writes every built-in table's rows to dir/<table>.tsv in the
// format prepare streams to LOAD DATA (see Encoding TSV), so that a plain
// LOAD DATA LOCAL INFILE of the files measures the server's ceiling.
func DumpTSV(dir string, schema SchemaOptions, gen GenOptions) ([]string, error) {
	schema, err := schema.Normalize()
	if err != nil {
		return nil, err
	}
	g, err := NewGenerator(gen)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for i, name := range schema.TableNames() {
		kind, n := MainTable, i+1
		if i >= schema.Tables {
			kind, n = LevelTable, i-schema.Tables+1
		}
		path := filepath.Join(dir, name+".tsv")
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		var buf []byte
		for id := int64(1); id <= gen.TableSize; id++ {
			buf = g.AppendRow(buf[:0], kind, n, id, TSV)
			if _, err := w.Write(buf); err != nil {
				f.Close()
				return nil, fmt.Errorf("write %s: %w", path, err)
			}
		}
		if err := w.Flush(); err != nil {
			f.Close()
			return nil, fmt.Errorf("write %s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
		files = append(files, path)
	}
	return files, nil
}
