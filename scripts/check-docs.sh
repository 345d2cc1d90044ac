#!/usr/bin/env bash
# Checks the generated manual pages and completions (`make docs`): every subcommand is in each manual, the
# completion scripts parse, and bash completes orientctl's subcommands and the values of --mask.
# Usage: scripts/check-docs.sh DOCS_DIR BIN_DIR
set -euo pipefail
docs=$1
bin=$2
export LC_ALL=C.UTF-8

fail() { echo "check-docs: $*" >&2; exit 1; }

for tool in orientd orientctl; do
    page=$docs/man/$tool.1
    text=$(groff -mandoc -Tutf8 -P-cbou "$page" 2>/dev/null) || fail "$page does not render"
    # The subcommands as the tool's own help lists them.
    subcommands=$("$bin/$tool" --help | sed -n '/^SUBCOMMANDS:/,/^$/p' | grep -E '^  [a-z]' | awk '{ print $1 }')
    [ -n "$subcommands" ] || fail "$tool --help lists no subcommands"
    for subcommand in $subcommands; do
        [ "$subcommand" = help ] && continue
        grep -qw -- "$subcommand" <<<"$text" || fail "$page does not describe $subcommand"
    done
    bash -n "$docs/completions/$tool.bash" || fail "$docs/completions/$tool.bash does not parse"
    grep -q "compdef $tool" "$docs/completions/_$tool" || fail "$docs/completions/_$tool is not a zsh completion"
    grep -q "complete -c '$tool'" "$docs/completions/$tool.fish" || fail "$docs/completions/$tool.fish is not a fish completion"
done

# Completes `orientctl <words> <tab>` with the generated script and prints the candidates.
complete_orientctl() {
    bash -c '
        source "$1"; shift
        function=$(complete -p orientctl | sed -E "s/.*-F ([^ ]+).*/\1/")
        COMP_WORDS=(orientctl "$@" ""); COMP_CWORD=${#COMP_WORDS[@]}-1
        COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
        "$function" orientctl "" "${COMP_WORDS[COMP_CWORD-1]}"
        printf "%s\n" "${COMPREPLY[@]}"
    ' complete "$docs/completions/orientctl.bash" "$@"
}
grep -qx monitor <<<"$(complete_orientctl)" || fail "bash does not complete orientctl's subcommands"
grep -qx landscape-left <<<"$(complete_orientctl monitor --mask)" || fail "bash does not complete --mask values"
echo "check-docs: manuals and completions of orientd and orientctl are complete"
