// Package sqllex is the one place that knows the lexical rules of
// MySQL-family SQL that joinbench needs outside the full parser: quoted
// strings and identifiers, comments, optimizer hints, executable comments,
// the {{name}} placeholders of scenario files, and positions
// (line:column) for diagnostics.
//
// A Scanner returns tokens that cover the input without gaps or overlaps,
// white space and comments included, so a caller can copy, drop or check
// each piece of text. It never fails: a lexical mistake (an unterminated
// string, comment or hint, a malformed placeholder) still yields tokens to
// the end, and Scanner.Err reports the first one with its offset. Callers
// that only read the text (the analyzer, the schema splitter) ignore it;
// callers that send the text to a server (the scenario parser) report it.
//
// The rules are MySQL's, where MySQL and MariaDB agree:
//
//   - '...' and "..." are strings, `...` an identifier; a
//     doubled quote stands for one, and in strings a backslash escapes the
//     next byte. A double-quoted text is reported as a String whatever the
//     server's ANSI_QUOTES mode.
//   - `#` opens a comment to the end of the line; so does `--` when a space,
//     a control character (tab, newline, ...) or the end of the input
//     follows it: `--x` and `a--1` are not comments.
//   - `/* ... */` is a comment and does not nest.
//   - `/*! ... */` and `/*!50100 ... */` (and MariaDB's `/*M! ... */`) are
//     executable comments: to the server their content is SQL (unless the
//     version is above its own, which only the server knows). The scanner
//     reports the opening marker (ExecStart) and the closing `*/` (ExecEnd)
//     as tokens of their own and the content as ordinary tokens in
//     between; callers must treat that content as SQL, not as a comment:
//     keep it in the text they send, find placeholders and table names in
//     it.
//   - `/*+ ... */` is an optimizer hint comment (Hint), content up to the
//     first `*/`. MySQL reads hints only right after SELECT, INSERT,
//     UPDATE, DELETE or REPLACE with nothing but white space between; any
//     other `/*+` is a plain comment to it. The scanner reports every
//     `/*+ ... */` as a Hint and marks the others Misplaced: the caller
//     decides (the analyzer reports them; the scenario parser keeps them,
//     harmless, in the text). NewHintScanner reads a hint's content, where
//     `#`, `--` and `/*` open no comment.
//   - `{{name}}` (blanks allowed inside the braces) is a Placeholder
//     wherever it is not inside a string, identifier or comment; `{{` that
//     does not form one is an error.
//
// It parses nothing beyond tokens (the analyzer uses the TiDB parser for
// that) and links no driver.
package sqllex
