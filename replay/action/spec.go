package action

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/joinbench/joinbench/internal/usage"
)

// AllEndpoints is the target of an action run on every endpoint: in turn
// for a rolling change (Kind.Rolling), at once for a crash of the whole
// cluster (Kind.AllAtOnce).
const AllEndpoints = "all"

// Spec is one action of a run, as parsed from its text:
//
//	OFFSET@TARGET: KIND [ARGS][: TEXT]
//
// OFFSET is a Go duration into the measured phase; TARGET an endpoint (a
// sandbox node name such as node2, its number from 1 in the order the
// endpoints were given, its host:port, or "all": every endpoint in turn
// for a rolling change, at once for a crash of the whole cluster);
// ARGS and TEXT are the kind's (Kind.Parse).
type Spec struct {
	Text   string        // as given
	Offset time.Duration // into the measured phase
	Target string        // as given; resolved when the endpoints are open
	Kind   *Kind
	Job    Job // the kind's arguments, parsed
}

// What describes what the action does, for the live output and results.
func (s *Spec) What() string { return s.Job.What(Target{}) }

// Parse parses one action spec. A mistake is a usage error naming it.
func Parse(text string) (Spec, error) {
	s := Spec{Text: strings.TrimSpace(text)}
	args, err := s.parseHead()
	if err == nil {
		s.Job, err = s.Kind.Parse(args)
	}
	if err != nil {
		return Spec{}, usage.Errorf("--action %q: %v", s.Text, err)
	}
	return s, nil
}

// parseHead reads OFFSET@TARGET: KIND, the part of the grammar every kind
// shares, and returns what follows for the kind to parse.
func (s *Spec) parseHead() (Args, error) {
	at, rest, ok := strings.Cut(s.Text, "@")
	if !ok {
		return Args{}, errors.New("expected OFFSET@ENDPOINT: KIND ..., e.g. '30s@node2: sql: ALTER TABLE main1 ADD INDEX k (year_field)'")
	}
	off, err := time.ParseDuration(strings.TrimSpace(at))
	if err != nil || off < 0 {
		return Args{}, fmt.Errorf("offset %q is not a duration such as 30s or 1m30s", strings.TrimSpace(at))
	}
	s.Offset = off
	parts, err := splitTarget(strings.TrimSpace(at), rest)
	if err != nil {
		return Args{}, err
	}
	if s.Target = strings.TrimSpace(parts[0]); s.Target == "" {
		return Args{}, errors.New("no endpoint after @")
	}
	if strings.ContainsAny(s.Target, " \t") {
		return Args{}, missingColon(strings.TrimSpace(at), s.Target)
	}
	head := strings.Fields(parts[1])
	if len(head) == 0 {
		return Args{}, errors.New("no action kind after the endpoint")
	}
	name := strings.ToLower(head[0])
	s.Kind = Lookup(name)
	if s.Target == AllEndpoints && (s.Kind == nil || !s.Kind.Rolling && !s.Kind.AllAtOnce) {
		return Args{}, fmt.Errorf("%s acts on all endpoints at once, and only %s runs on all endpoints (each in turn); name one endpoint for %s",
			orList(namesWhere(func(k *Kind) bool { return k.AllAtOnce })), orList(namesWhere(func(k *Kind) bool { return k.Rolling })), name)
	}
	if s.Kind == nil {
		return Args{}, fmt.Errorf("unknown kind %q: use %s", name, orList(Names()))
	}
	a := Args{Kind: name, Words: head[1:], HasText: len(parts) > 2}
	if a.HasText {
		a.Text = strings.TrimSpace(parts[2])
	}
	return a, nil
}

// splitTarget splits what follows the @ at its colons: the target, the
// kind and its words, and the text when there is one. A target may be a
// host:port, whose port is all digits; offset is for messages.
func splitTarget(offset, rest string) ([]string, error) {
	parts := strings.SplitN(rest, ":", 3)
	if len(parts) < 2 {
		return nil, errors.New("expected ': KIND' after the endpoint")
	}
	if w := strings.Fields(parts[1]); len(w) > 1 && strings.Trim(w[0], "0123456789") == "" {
		return nil, missingColon(offset, parts[0]+":"+strings.TrimSpace(parts[1]))
	}
	if p := strings.TrimSpace(parts[1]); p != "" && strings.Trim(p, "0123456789") == "" {
		parts = strings.SplitN(rest, ":", 4)
		if len(parts) < 3 {
			return nil, errors.New("expected ': KIND' after the endpoint")
		}
		parts = append([]string{parts[0] + ":" + strings.TrimSpace(parts[1])}, parts[2:]...)
	}
	return parts, nil
}

// missingColon is the mistake of a target followed by its kind without
// the colon between them: no endpoint holds a space, so what came before
// the first colon was taken for the endpoint.
func missingColon(offset, target string) error {
	w := strings.Fields(target)
	return fmt.Errorf("missing ':' after the target? %q is not an endpoint; write %s@%s: %s ...",
		target, offset, w[0], strings.Join(w[1:], " "))
}
