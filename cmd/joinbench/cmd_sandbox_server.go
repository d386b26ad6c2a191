package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/server/sandbox"
)

// serverShow shows a single-server sandbox.
type serverShow struct{ s *sandbox.Server }

type sandboxJSON struct {
	Name    string      `json:"name"`
	Running bool        `json:"running"`
	Flavor  flavor.Name `json:"flavor"`
	Version string      `json:"version"`
	Binary  string      `json:"binary"`
	Address string      `json:"address"`
	Port    int         `json:"port"`
	Socket  string      `json:"socket"`
	PID     int         `json:"pid"`
	Dir     string      `json:"dir"`
	DSN     string      `json:"dsn"`
}

func (v serverShow) view(context.Context) any {
	s := v.s
	return sandboxJSON{
		Name: s.Name, Running: s.Running(), Flavor: s.Binary.Flavor, Version: s.Binary.Version,
		Binary: s.Binary.Path, Address: s.Addr(), Port: s.Port, Socket: s.Socket, PID: s.PID,
		Dir: s.Dir, DSN: s.DSN(""),
	}
}

func (v serverShow) printStatus(_ context.Context, out io.Writer) error {
	s := v.s
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "name\t%s\nstate\t%s\nserver\t%s\nbinary\t%s\naddress\t%s\nsocket\t%s\npid\t%d\ndata\t%s\nerror log\t%s\nstarted\t%s\ndsn\t%s\n",
		s.Name, sandboxState(s.Running()), s.Binary.Flavour().String(), s.Binary.Path, s.Addr(), s.Socket, s.PID,
		s.DataDir, s.ErrorLog, s.StartedAt.Local().Format(time.RFC3339), s.DSN(""))
	return w.Flush()
}

func (v serverShow) listRow(w io.Writer) {
	s := v.s
	fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", s.Name, sandboxState(s.Running()), s.Addr(), s.Binary.Flavor, s.Binary.Version, s.PID, s.Dir)
}
