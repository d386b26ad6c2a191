package action

import (
	"fmt"
	"time"
)

// Args are what follows a spec's kind: the words before a second colon,
// and the text after it. Their methods read the shapes kinds share, with
// the same words for the same mistakes.
type Args struct {
	Kind    string // the kind's name, for messages
	Words   []string
	Text    string // trimmed
	HasText bool   // a second colon was there, even with nothing after it
}

// NoWords refuses words before the text, which what names.
func (a Args) NoWords(what string) error {
	if len(a.Words) > 0 {
		return fmt.Errorf("%s takes no arguments before %s", a.Kind, what)
	}
	return nil
}

// NeedText returns the text, which the kind needs; what names it.
func (a Args) NeedText(what string) (string, error) {
	if a.Text == "" {
		return "", fmt.Errorf("%s needs %s after a second colon", a.Kind, what)
	}
	return a.Text, nil
}

// NoText refuses a text.
func (a Args) NoText() error {
	if a.HasText {
		return fmt.Errorf("%s takes nothing after its arguments", a.Kind)
	}
	return nil
}

// Duration reads the one word as a positive duration; what says what it
// is for. When optional, no word at all is 0.
func (a Args) Duration(what string, optional bool) (time.Duration, error) {
	if len(a.Words) == 0 && optional {
		return 0, nil
	}
	if len(a.Words) != 1 {
		return 0, fmt.Errorf("%s takes one duration (%s), e.g. '%s 5s'", a.Kind, what, a.Kind)
	}
	d, err := time.ParseDuration(a.Words[0])
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s: %q is not a positive duration", a.Kind, a.Words[0])
	}
	return d, nil
}
