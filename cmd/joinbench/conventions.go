package main

// conventions is what a flag means on every command that takes it, written
// once: docs/cli.md and the manual page print it, and conventions_test.go
// holds the kong model to it.
const conventions = `Every command spells a flag the same way and gives it the same meaning:

  - --out DIR is a folder the command writes into (run, ab); -o/--output FILE is one file, standard output without it (report, compare, ab).
  - -f/--format chooses the output of every command that prints in more than one format, text by default; --json is --format json.
  - -t/--threads is the number of threads or connections, on every command that has them (run, ab, prepare, warmup); show's --thread-id is which worker's values to render.
  - A short flag stands for the same long flag on every command that has it: -f --format, -o --output, -t --threads, -s --scenario, -n --name, -q --quiet, -h --help.
  - --tags TAG,... chooses the same scenarios on list, run and ab: those that carry any of the tags (--tags left,right); tags joined by + must all be carried (--tags left+hint, or --tags left+hint,semi_anti for either). A tag no scenario carries is an error.
  - A scenario, tag or lint rule name that does not exist is a usage error (exit 2) that suggests the nearest name: the same name in another case, else the closest by edit distance.
  - A duration is a Go duration (500ms, 10s, 1h30m) or a number alone, read as seconds as sysbench reads it: --time 10 is --time 10s.
  - --explain is the plans run and ab capture; lint's rule documentation is --explain-rule.

Renamed flags keep working, hidden, with a note on stderr: lint --explain RULE (now --explain-rule) and show --thread (now --thread-id). show -n is gone, as -n is --name elsewhere: give --renders. --json is a second spelling and prints no note. report and compare wrote a file with --out: that is -o/--output now, and --out FILE is refused with --output suggested, as --out always names a folder.`
