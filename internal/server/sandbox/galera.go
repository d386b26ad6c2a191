package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/joinbench/joinbench/internal/flavor"
	"github.com/joinbench/joinbench/internal/usage"
)

// SSTMethod is how a joining node receives a full copy of the data (state
// snapshot transfer).
//
// Sandboxes use mariabackup. rsync is faster to start (no fixed wait in its
// script), but its joiner runs an rsync daemon that, started by root, drops
// to the "nobody" user and cannot write a data directory owned by root:
// with joinbench run as root (CI, containers) the nodes would have to run
// as the mysql user, on a sandbox directory that user can enter, which the
// default one under root's home is not. mariabackup works as any user, and
// it does not block the donor for the length of the copy as rsync does, so
// a node that rejoins by a full transfer during a run does not stall writes
// on its donor. Its cost is a fixed 10 s sleep of the donor's script per
// transfer; a restarted node that finds its missing write-sets in the
// donor's cache rejoins by incremental transfer (IST) without it.
const SSTMethod = "mariabackup"

// providerPaths are where distributions install the Galera 4 library.
var providerPaths = []string{
	"/usr/lib/galera/libgalera_smm.so",   // Debian, Ubuntu (galera-4)
	"/usr/lib/galera-4/libgalera_smm.so", // older Debian packaging
	"/usr/lib64/galera-4/libgalera_smm.so",
	"/usr/lib64/galera/libgalera_smm.so", // RHEL, Fedora
	"/usr/lib/libgalera_smm.so",
}

// galeraPackages is the one command that installs what a cluster needs on
// Debian/Ubuntu besides the server.
const galeraPackages = "galera-4 mariadb-backup socat"

// GaleraInstallHint installs everything a cluster sandbox needs.
const GaleraInstallHint = "apt-get install mariadb-server " + galeraPackages

// galeraNeeds checks that a cluster can start from b: a MariaDB server, the
// Galera library (provider, or found in the usual places), the state
// transfer script and the tools it runs. What is missing is one user error
// naming the packages. It returns the library's path.
func galeraNeeds(b *Binary, provider string) (string, error) {
	if b.Flavor != flavor.MariaDB {
		return "", usage.Errorf("sandbox: a Galera cluster needs MariaDB's server (mariadbd), not %s: install it with '%s', or give --server-binary", b, GaleraInstallHint)
	}
	if provider != "" {
		if st, err := os.Stat(provider); err != nil || st.IsDir() {
			return "", usage.Errorf("--galera-provider %s: no such file", provider)
		}
	} else {
		for _, p := range providerPaths {
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				provider = p
				break
			}
		}
	}
	var missing []string
	if provider == "" {
		missing = append(missing, "galera-4 (libgalera_smm.so)")
	}
	if findTool(b, "wsrep_sst_"+SSTMethod) == "" {
		missing = append(missing, "mariadb-server (wsrep_sst_"+SSTMethod+")")
	}
	if findTool(b, "mariadb-backup") == "" && findTool(b, "mariabackup") == "" {
		missing = append(missing, "mariadb-backup")
	}
	if findTool(b, "socat") == "" {
		missing = append(missing, "socat")
	}
	if len(missing) > 0 {
		return "", usage.Errorf("sandbox: a Galera cluster needs %s: install them with 'apt-get install %s'", strings.Join(missing, ", "), galeraPackages)
	}
	return provider, nil
}

// CheckGalera says, as one user error naming the packages, what a cluster
// sandbox would miss on this machine with server b; nil when nothing.
func CheckGalera(b *Binary) error {
	_, err := galeraNeeds(b, "")
	return err
}

// findTool looks for a program next to the server binary (its bin
// directory), then on PATH, then in /usr/bin: the server looks for its
// state transfer scripts the same way.
func findTool(b *Binary, name string) string {
	up := filepath.Dir(filepath.Dir(b.Path))
	for _, d := range []string{filepath.Dir(b.Path), filepath.Join(up, "bin")} {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, d := range []string{"/usr/bin", "/usr/sbin"} {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// nodeOptions are the server options of a cluster node: the single-server
// sandbox's settings plus what Galera requires (row-based replication,
// interleaved auto-increment locks) and the node's addresses.
func (c *Cluster) nodeOptions(n *Node, bufferPool string, extra []string) []string {
	opts := []string{
		"--datadir=" + n.DataDir,
		"--tmpdir=" + n.TmpDir,
		"--port=" + strconv.Itoa(n.Port),
		"--socket=" + n.Socket,
		"--pid-file=" + n.PidFile,
		"--log-error=" + n.ErrorLog,
	}
	if bd := n.basedir(); bd != "" {
		opts = append(opts, "--basedir="+bd)
	}
	opts = append(opts, benchmarkArgs(&c.Binary, bufferPool)...)
	var members []string
	for _, m := range c.Nodes {
		members = append(members, "127.0.0.1:"+strconv.Itoa(m.GroupPort))
	}
	opts = append(opts,
		"--binlog-format=ROW",
		"--innodb-autoinc-lock-mode=2",
		"--wsrep-on=ON",
		"--wsrep-provider="+c.Provider,
		"--wsrep-cluster-name="+c.Name,
		"--wsrep-cluster-address=gcomm://"+strings.Join(members, ","),
		"--wsrep-node-name="+n.Name,
		"--wsrep-node-address=127.0.0.1:"+strconv.Itoa(n.GroupPort),
		"--wsrep-node-incoming-address=127.0.0.1:"+strconv.Itoa(n.Port),
		"--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:"+strconv.Itoa(n.GroupPort)+
			";ist.recv_addr=127.0.0.1:"+strconv.Itoa(n.ISTPort),
		"--wsrep-sst-receive-address=127.0.0.1:"+strconv.Itoa(n.SSTPort),
		"--wsrep-sst-method="+SSTMethod,
	)
	return append(opts, extra...)
}

// optionFile renders server options as a my.cnf. Nodes read their options
// from it (--defaults-file) rather than from the command line: the state
// transfer scripts read the same file, where --no-defaults would let them
// read the machine's /etc/mysql/my.cnf (whose [mysqld_safe] syslog sends
// their errors to syslog), and Debian's wsrep_sst_mariabackup passes a
// command-line --innodb-buffer-pool-size on to mariadb-backup, which
// refuses it. The node's own options (own) come last, so that they win
// over the same option set for every node.
func optionFile(opts []string, own ...string) string {
	var b strings.Builder
	b.WriteString("# Written by joinbench sandbox at every start of the cluster: edits are lost.\n[mysqld]\n")
	writeOptions(&b, opts)
	if len(own) > 0 {
		b.WriteString("# This node's own options (sandbox start --node-option), kept across starts.\n")
		writeOptions(&b, own)
	}
	// The state transfer scripts read their own settings here; the
	// defaults suit a sandbox.
	b.WriteString("\n[sst]\n")
	return b.String()
}

// writeOptions writes server options as my.cnf lines.
func writeOptions(b *strings.Builder, opts []string) {
	for _, o := range opts {
		o = strings.TrimPrefix(o, "--")
		name, value, hasValue := strings.Cut(o, "=")
		if !hasValue {
			fmt.Fprintf(b, "%s\n", name)
			continue
		}
		if strings.ContainsAny(value, "#'\"\\") || strings.TrimSpace(value) != value {
			value = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value) + `"`
		}
		fmt.Fprintf(b, "%s=%s\n", name, value)
	}
}
