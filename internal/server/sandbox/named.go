package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/joinbench/joinbench/internal/usage"
)

// DefaultRoot is where named sandboxes live unless told otherwise:
// $XDG_STATE_HOME/joinbench/sandboxes, else
// ~/.local/state/joinbench/sandboxes.
func DefaultRoot() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "joinbench", "sandboxes")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "joinbench-sandboxes")
	}
	return filepath.Join(home, ".local", "state", "joinbench", "sandboxes")
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// CheckName validates a sandbox name: letters, digits, '.', '_' and '-'.
func CheckName(name string) error {
	if !nameRE.MatchString(name) {
		return usage.Errorf("sandbox name %q: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	return nil
}

func root(dir string) string {
	if dir == "" {
		return DefaultRoot()
	}
	return dir
}

// Lookup loads the named sandbox's state from root (DefaultRoot when
// empty). A sandbox that does not exist is a user error; a stopped one is
// returned with Running() false.
func Lookup(rootDir, name string) (*Server, error) {
	s := &Server{log: io.Discard}
	dir, found, err := loadState(rootDir, name, stateFile, s)
	switch {
	case err != nil:
		return nil, err
	case !found && IsCluster(rootDir, name):
		return nil, usage.Errorf("sandbox %s is a Galera cluster, not a single server", name)
	case !found:
		return nil, usage.Errorf("no sandbox named %q in %s: start it with 'joinbench sandbox start --name %s'", name, root(rootDir), name)
	}
	s.Name, s.Dir = name, dir
	return s, nil
}

// loadState reads the state file of the sandbox called name (a single
// server's or a cluster's) into v. found is false when there is none.
func loadState(rootDir, name, file string, v any) (dir string, found bool, err error) {
	if err := CheckName(name); err != nil {
		return "", false, err
	}
	dir = filepath.Join(root(rootDir), name)
	b, err := os.ReadFile(filepath.Join(dir, file))
	if errors.Is(err, os.ErrNotExist) {
		return dir, false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("sandbox %s: %w", name, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return "", false, fmt.Errorf("sandbox %s: %s: %w", name, filepath.Join(dir, file), err)
	}
	return dir, true, nil
}

// SetLog sets where progress lines go.
func (s *Server) SetLog(w io.Writer) {
	if w == nil {
		w = io.Discard
	}
	s.log = w
}

// StartNamed starts the sandbox called name under root, or returns it when
// it already runs (running is then true). A stopped sandbox whose data was
// kept starts again on its data and, unless cfg.Port says otherwise, its
// old port when free. The server outlives this process.
func StartNamed(ctx context.Context, rootDir, name string, cfg Config) (s *Server, running bool, err error) {
	if err := CheckName(name); err != nil {
		return nil, false, err
	}
	if IsCluster(rootDir, name) {
		return nil, false, usage.Errorf("sandbox %s is a Galera cluster: start it with --galera, or stop it first ('joinbench sandbox stop --name %s')", name, name)
	}
	old, err := Lookup(rootDir, name)
	if err == nil {
		if old.Running() {
			return old, true, nil
		}
		if cfg.Port == 0 && portFree(old.Port) {
			cfg.Port = old.Port
		}
	} else if !usage.Is(err) {
		return nil, false, err
	}
	cfg.Dir = filepath.Join(root(rootDir), name)
	cfg.Detach = true
	// A sandbox that never started is not one: without its state file list
	// would not show it nor stop remove it, so its directory (a data
	// directory can be a gigabyte of redo log) goes with the failure. A
	// kept sandbox that fails to start again keeps its data.
	_, statErr := os.Stat(filepath.Join(cfg.Dir, stateFile))
	known := statErr == nil
	s, err = Start(ctx, cfg)
	if err != nil {
		if !known {
			if rmErr := os.RemoveAll(cfg.Dir); rmErr != nil {
				err = fmt.Errorf("%w (and its directory %s could not be removed: %v)", err, cfg.Dir, rmErr)
			}
		}
		return nil, false, err
	}
	s.Name = name
	if err := s.saveState(); err != nil {
		_ = s.Stop(context.Background())
		return nil, false, fmt.Errorf("sandbox %s: save state: %w", name, err)
	}
	return s, false, nil
}

// List returns the sandboxes under root, by name.
func List(rootDir string) ([]*Server, error) {
	entries, err := os.ReadDir(root(rootDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sandboxes: %w", err)
	}
	var out []*Server
	for _, e := range entries {
		if !e.IsDir() || CheckName(e.Name()) != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(root(rootDir), e.Name(), stateFile)); err != nil {
			continue
		}
		s, err := Lookup(rootDir, e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
