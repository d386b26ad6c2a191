// Package manpage writes the manual page (roff, man(7) macros) of a kong
// application from its model: every visible command with its arguments
// and flags, the flags shared alike by several commands once, and the
// environment variables the flags read. Help texts are read by go/doc
// comment rules, as kong's --help reads them.
//
// It must not know any command of its program: the sections only the
// program can write (exit status, see also) come in as Page.Sections.
package manpage
