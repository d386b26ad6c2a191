package shellcomplete

import (
	"fmt"
	"regexp"
	"strings"
)

// Shells are the shells Script knows.
var Shells = []string{"bash", "zsh", "fish"}

// CompleteCommand is the hidden command through which the scripts ask the
// program for completions: PROGRAM __complete WORD... (the words after
// the program name, the last one being typed).
const CompleteCommand = "__complete"

// Script returns the completion script of shell for program.
func Script(shell, program string) (string, error) {
	if !safeName.MatchString(program) {
		return "", fmt.Errorf("completion: program name %q is not a plain command name", program)
	}
	var tmpl string
	switch shell {
	case "bash":
		tmpl = bashScript
	case "zsh":
		tmpl = zshScript
	case "fish":
		tmpl = fishScript
	default:
		return "", fmt.Errorf("completion: unknown shell %q (want %s)", shell, strings.Join(Shells, ", "))
	}
	return strings.NewReplacer("PROGRAM", program, "COMPLETE", CompleteCommand).Replace(tmpl), nil
}

// safeName is what the scripts can paste into function names unquoted.
var safeName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// The scripts call the program as the line names it (the first word), so
// that ./bin/PROGRAM completes from that build, and keep the candidates'
// order (the model's: commands and flags as --help lists them).

const bashScript = `# bash completion for PROGRAM (PROGRAM completion bash)
_PROGRAM() {
	local out line directive=none
	COMPREPLY=()
	out=$("${COMP_WORDS[0]}" COMPLETE "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return 0
	while IFS= read -r line; do
		if [[ $line == :* ]]; then
			directive=${line#:}
		else
			COMPREPLY+=("${line%%$'\t'*}")
		fi
	done <<<"$out"
	case $directive in
	files) ((${#COMPREPLY[@]})) || compopt -o default ;;
	dirs) ((${#COMPREPLY[@]})) || compopt -o dirnames ;;
	esac
	# A flag name that takes a value, or a value of NAME=COUNT, is often
	# followed by "=": no space after a single candidate ending in one.
	if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *= ]]; then
		compopt -o nospace
	fi
	return 0
}
complete -o nosort -F _PROGRAM PROGRAM 2>/dev/null || complete -F _PROGRAM PROGRAM
`

const zshScript = `#compdef PROGRAM
# zsh completion for PROGRAM (PROGRAM completion zsh): source it, or save it
# as _PROGRAM in a folder of $fpath.
_PROGRAM() {
	local out line directive=none
	local -a candidates
	out=$("${words[1]}" COMPLETE "${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
	for line in "${(@f)out}"; do
		if [[ $line == :* ]]; then
			directive=${line#:}
		else
			candidates+=("${${line%%$'\t'*}//:/\\:}:${line#*$'\t'}")
		fi
	done
	if ((${#candidates})); then
		_describe -t values PROGRAM candidates
	elif [[ $directive == files ]]; then
		_files
	elif [[ $directive == dirs ]]; then
		_files -/
	else
		return 1
	fi
}
if [[ ${funcstack[1]} == _PROGRAM ]]; then
	_PROGRAM "$@"
else
	compdef _PROGRAM PROGRAM
fi
`

const fishScript = `# fish completion for PROGRAM (PROGRAM completion fish)
function __PROGRAM_complete
	set -l words (commandline -opc)
	set -l program $words[1]
	set -e words[1]
	set -l current (commandline -ct)
	set -l out ($program COMPLETE $words "$current" 2>/dev/null)
	or return
	set -l directive (string replace -r '^:' '' -- $out[-1])
	set -e out[-1]
	if test (count $out) -gt 0
		printf '%s\n' $out
	else if test "$directive" = files
		__fish_complete_path "$current"
	else if test "$directive" = dirs
		__fish_complete_directories "$current"
	end
end
complete -c PROGRAM -f -k -a '(__PROGRAM_complete)'
`
