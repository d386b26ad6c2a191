package main

import (
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/usage"
)

// abServer is how --base or --candidate names a server: exactly one of
// its fields is set.
type abServer struct {
	dsns    []string
	host    string
	port    int
	socket  string
	sandbox string
	label   string // for messages: never holds a password
}

// same reports whether s and o name the same server the same way (and so
// the same database).
func (s abServer) same(o abServer) bool {
	return slices.Equal(s.dsns, o.dsns) && s.host == o.host && s.port == o.port && s.socket == o.socket && s.sandbox == o.sandbox
}

// parseServer reads the values of --base or --candidate.
func parseServer(flag string, vals []string) (abServer, error) {
	var s abServer
	var labels []string
	for _, v := range vals {
		v = strings.TrimSpace(v)
		switch {
		case strings.ContainsAny(v, "@("):
			cfg, err := mysql.ParseDSN(v)
			if err != nil {
				return s, usage.Errorf("%s: not a DSN: %v", flag, err)
			}
			s.dsns = append(s.dsns, v)
			labels = append(labels, cfg.Addr)
		case len(vals) > 1:
			return s, usage.Errorf("%s: only DSNs may be repeated (one per endpoint), got %q", flag, v)
		case strings.HasPrefix(v, "/"):
			s.socket, s.label = v, v
		case strings.Contains(v, ":"):
			host, port, err := net.SplitHostPort(v)
			p, perr := strconv.Atoi(port)
			if err != nil || perr != nil || p < 1 || p > 65535 {
				return s, usage.Errorf("%s: %q is not HOST:PORT", flag, v)
			}
			s.host, s.port, s.label = host, p, v
			if s.host == "" {
				s.host = "127.0.0.1"
			}
		case v == "":
			return s, usage.Errorf("%s: empty server", flag)
		default:
			s.sandbox, s.label = v, "sandbox "+v
		}
	}
	if len(s.dsns) > 0 {
		s.label = strings.Join(labels, ",")
	}
	return s, nil
}
