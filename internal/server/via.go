package server

import "errors"

// Address is where the endpoint's connections go: "tcp" and HOST:PORT, or
// "unix" and a socket path.
func (e Endpoint) Address() (network, address string, err error) {
	cfg, err := e.Config()
	if err != nil {
		return "", "", err
	}
	network = cfg.Net
	if network == "" {
		network = "tcp"
	}
	return network, cfg.Addr, nil
}

// Via is the endpoint reached at the TCP address addr instead (a proxy in
// front of its server): the same name, credentials, database and process.
func (e Endpoint) Via(addr string) (Endpoint, error) {
	cfg, err := e.Config()
	if err != nil {
		return Endpoint{}, err
	}
	cfg.Net, cfg.Addr = "tcp", addr
	via := NewEndpoint(e.Name, cfg)
	via.Node, via.Process = e.Node, e.Process
	return via, nil
}

// OnClose adds f to what Close does, after what it did already: a proxy
// in front of the target's endpoints is stopped once the target is.
func (t *Target) OnClose(f func() error) {
	prev := t.closer
	t.closer = func() error {
		var err error
		if prev != nil {
			err = prev()
		}
		return errors.Join(err, f())
	}
}
