package server

import (
	"cmp"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/joinbench/joinbench/internal/usage"
)

// Built-in defaults, used when neither a flag, the environment nor an
// option file gives a value.
const (
	DefaultHost     = "127.0.0.1"
	DefaultPort     = 3306
	DefaultUser     = "root"
	DefaultDatabase = "joinbench"

	DefaultConnectTimeout = 10 * time.Second
)

// OptionGroups are the option-file groups read, in this order of
// precedence (a later line wins, as with the mysql client).
var OptionGroups = []string{"client", "joinbench"}

// Options are the connection options as given on the command line (flags
// and environment already merged: an empty value means "not given").
type Options struct {
	DSNs     []string // go-sql-driver/mysql DSNs, one per endpoint
	Host     string
	Port     int
	Socket   string
	User     string
	Password string
	Database string

	DefaultsFile string // option file to read instead of ~/.my.cnf
	NoDefaults   bool   // read no option file at all

	SSLMode string // DISABLED, PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY
	SSLCA   string
	SSLCert string
	SSLKey  string

	ConnectTimeout time.Duration // 0 means DefaultConnectTimeout

	// CreateDatabase creates the database on a named server where it does
	// not exist; without it a missing database is an error, so a typo in
	// --database cannot silently scatter tables over a new database. A
	// sandbox's database is always created.
	CreateDatabase bool
}

// optionFile returns the option file to read: DefaultsFile, else ~/.my.cnf
// when it exists, else nil.
func (o *Options) optionFile() (*OptionFile, error) {
	if o.NoDefaults {
		return nil, nil
	}
	path := o.DefaultsFile
	if path == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, nil
		}
		path = filepath.Join(home, ".my.cnf")
		if _, err := os.Stat(path); err != nil {
			return nil, nil
		}
	}
	return ReadOptionFile(path, OptionGroups...)
}

// NamesServer reports whether the options name a server to connect to (as
// opposed to asking for a throwaway sandbox): a DSN, a host, port or
// socket, an explicit option file, or an option file that sets host, port
// or socket.
func (o *Options) NamesServer() (bool, error) {
	if len(o.DSNs) > 0 || o.Host != "" || o.Port != 0 || o.Socket != "" || o.DefaultsFile != "" {
		return true, nil
	}
	f, err := o.optionFile()
	if err != nil {
		return false, err
	}
	for _, k := range []string{"host", "port", "socket"} {
		if _, ok := f.Get(k); ok {
			return true, nil
		}
	}
	return false, nil
}

// Resolved is the outcome of merging flags, environment, option file and
// defaults, before any connection is made.
type Resolved struct {
	Endpoints []Endpoint
	Database  string
}

// Resolve merges the options (flag/env > option file > built-in default)
// into endpoints. It does not connect.
func (o *Options) Resolve() (*Resolved, error) {
	if len(o.DSNs) > 0 {
		if o.Host != "" || o.Port != 0 || o.Socket != "" || o.User != "" || o.Password != "" {
			return nil, usage.Errorf("--dsn cannot be combined with --host, --port, --socket, --user or --password")
		}
	}
	f, err := o.optionFile()
	if err != nil {
		return nil, err
	}
	pick := func(given, key, def string) string {
		if given != "" {
			return given
		}
		if f != nil && len(o.DSNs) == 0 {
			if v, ok := f.Get(key); ok && v != "" {
				return v
			}
		}
		return def
	}
	db := o.Database
	if db == "" && f != nil {
		db, _ = f.Get("database")
	}
	if db == "" {
		db = DefaultDatabase
	}
	sslMode := strings.ToUpper(strings.ReplaceAll(pick(o.SSLMode, "ssl_mode", ""), "-", "_"))
	ssl := tlsFiles{
		ca:   pick(o.SSLCA, "ssl_ca", ""),
		cert: pick(o.SSLCert, "ssl_cert", ""),
		key:  pick(o.SSLKey, "ssl_key", ""),
	}
	tlsName, err := registerTLS(sslMode, ssl)
	if err != nil {
		return nil, err
	}
	timeout := cmp.Or(o.ConnectTimeout, DefaultConnectTimeout)
	r := &Resolved{Database: db}

	if len(o.DSNs) > 0 {
		for i, dsn := range o.DSNs {
			cfg, err := mysql.ParseDSN(dsn)
			if err != nil {
				// The DSN may hold a password: do not echo it.
				return nil, usage.Errorf("--dsn #%d: %v", i+1, err)
			}
			if cfg.DBName == "" {
				cfg.DBName = db
			}
			if cfg.TLSConfig == "" && tlsName != "" {
				cfg.TLSConfig = tlsName
			}
			if cfg.Timeout == 0 {
				cfg.Timeout = timeout
			}
			r.Endpoints = append(r.Endpoints, endpoint(cfg))
		}
		r.Database = r.Endpoints[0].database
		return r, nil
	}

	cfg := mysql.NewConfig()
	cfg.User = pick(o.User, "user", DefaultUser)
	cfg.Passwd = pick(o.Password, "password", "")
	cfg.DBName = db
	cfg.Timeout = timeout
	cfg.TLSConfig = tlsName
	if sock := pick(o.Socket, "socket", ""); sock != "" && o.Host == "" && o.Port == 0 {
		cfg.Net = "unix"
		cfg.Addr = sock
	} else {
		host := pick(o.Host, "host", DefaultHost)
		port := o.Port
		if port == 0 {
			if v, ok := f.Get("port"); ok && len(o.DSNs) == 0 {
				p, err := strconv.Atoi(v)
				if err != nil || p <= 0 || p > 65535 {
					return nil, usage.Errorf("%s: port: %q is not a port number", f.Files[0], v)
				}
				port = p
			}
		}
		if port == 0 {
			port = DefaultPort
		}
		if port < 0 || port > 65535 {
			return nil, usage.Errorf("--port %d: not a port number", port)
		}
		cfg.Net = "tcp"
		cfg.Addr = net.JoinHostPort(host, strconv.Itoa(port))
	}
	r.Endpoints = append(r.Endpoints, endpoint(cfg))
	return r, nil
}

func endpoint(cfg *mysql.Config) Endpoint {
	return NewEndpoint(cfg.Addr, cfg)
}

type tlsFiles struct{ ca, cert, key string }

// tlsConfigName is the name under which the TLS options are registered
// with the driver.
const tlsConfigName = "joinbench"

// registerTLS maps the mysql client's --ssl-mode to the driver's tls
// parameter, registering a custom configuration when files are involved.
// Without a mode: VERIFY_CA when a CA is given, REQUIRED when only a client
// certificate is, otherwise the driver's default (no TLS).
func registerTLS(mode string, f tlsFiles) (string, error) {
	if mode == "" {
		switch {
		case f.ca != "":
			mode = "VERIFY_CA"
		case f.cert != "" || f.key != "":
			mode = "REQUIRED"
		default:
			return "", nil
		}
	}
	switch mode {
	case "DISABLED":
		return "false", nil
	case "PREFERRED":
		if f == (tlsFiles{}) {
			return "preferred", nil
		}
	case "REQUIRED", "VERIFY_CA", "VERIFY_IDENTITY":
		if f == (tlsFiles{}) && mode == "REQUIRED" {
			return "skip-verify", nil
		}
	default:
		return "", usage.Errorf("--ssl-mode %s: want DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY", mode)
	}
	if (mode == "VERIFY_CA" || mode == "VERIFY_IDENTITY") && f.ca == "" {
		return "", usage.Errorf("--ssl-mode %s needs --ssl-ca", mode)
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	var roots *x509.CertPool
	if f.ca != "" {
		pem, err := os.ReadFile(f.ca)
		if err != nil {
			return "", usage.Errorf("--ssl-ca: %v", err)
		}
		roots = x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return "", usage.Errorf("--ssl-ca %s: no PEM certificate found", f.ca)
		}
		cfg.RootCAs = roots
	}
	if (f.cert == "") != (f.key == "") {
		return "", usage.Errorf("--ssl-cert and --ssl-key go together")
	}
	if f.cert != "" {
		pair, err := tls.LoadX509KeyPair(f.cert, f.key)
		if err != nil {
			return "", usage.Errorf("--ssl-cert/--ssl-key: %v", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	switch mode {
	case "PREFERRED", "REQUIRED":
		cfg.InsecureSkipVerify = true
	case "VERIFY_CA":
		// Verify the chain against the CA but not the host name.
		cfg.InsecureSkipVerify = true
		cfg.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 {
				return errors.New("server sent no certificate")
			}
			certs := make([]*x509.Certificate, len(raw))
			for i, r := range raw {
				c, err := x509.ParseCertificate(r)
				if err != nil {
					return err
				}
				certs[i] = c
			}
			inter := x509.NewCertPool()
			for _, c := range certs[1:] {
				inter.AddCert(c)
			}
			_, err := certs[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
			return err
		}
	case "VERIFY_IDENTITY":
		// The driver fills in ServerName from the address.
	}
	if err := mysql.RegisterTLSConfig(tlsConfigName, cfg); err != nil {
		return "", fmt.Errorf("register TLS config: %w", err)
	}
	return tlsConfigName, nil
}
