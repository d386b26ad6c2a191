// Package clidoc writes the reference of a kong application from its
// model: as Markdown (WriteMarkdown) and as a manual page in roff, man(7)
// macros (WriteManPage). Both read the model through one walk: the
// visible commands, their flags grouped as --help groups them, the
// groups several commands take alike (listed once), each flag's syntax
// and the notes --help shows only in a placeholder or not at all, and
// the environment variables the flags read. A help text or a flag changed
// in code therefore changes both renderings alike. Help texts are read by
// go/doc comment rules, as kong's --help reads them.
//
// It must not know any command of its program: what only the program can
// say (the man page's exit status, see also) comes in as Page.Sections.
package clidoc
