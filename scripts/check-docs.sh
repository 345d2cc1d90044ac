#!/usr/bin/env bash
# Checks the documentation against the programs it describes (`make check-docs`, part of `make test`):
#
# A. The generated manual pages and completions (`make docs`): every subcommand is in each manual, the
#    completion scripts parse, and bash completes orientctl's subcommands and the values of --mask.
#
# B. The markdown files (scripts/check-markdown.py): README.md, PROTOCOL.md, BENCHMARKS.md, RELIABILITY.md,
#    NEWS.md, docs/*.md and docs/development/*.md. NEWS.md is history, so only its links are checked (rules 2 to 4
#    skip it).
#    1. Links. Every [text](target) and ![alt](target) outside code, whose target is not a URL (scheme:...),
#       names a file or folder that exists, relative to the file that links; a #anchor names a heading of the
#       target markdown file (a bare #anchor, of the same file), spelled as GitHub spells heading anchors. A file
#       that `make install` installs (the five above and docs/*.md) links only to installed files (those, and
#       docs/*.svg), so that its links work in the package too; docs/development/ stays in the repository.
#    2. Commands and options the docs name. A command line is an inline code span, or a line of a fenced code
#       block with its backslash-continued lines and the indented lines under it that start with an option or
#       `[` (a wrapped synopsis). Quoted text, shell comments, `[`, `]` and `...` are dropped, and the rest is
#       cut at `&&`, `||`, ` | `, `;` and `&`. A piece whose first word (after `sudo` and VAR=value words) is
#       orientd or orientctl, or a path or Key= assignment ending in one of them, is an invocation. Its first
#       word that is neither an option nor a top-level option's value is the subcommand: every --option before
#       it is the tool's, every --option after it the subcommand's (a short -o counts as the long option its
#       --help pairs it with). An UPPER-CASE or <angled> word is a placeholder, not a subcommand. Each named
#       subcommand must exist, and each option must be in the --help of what it is attributed to; the NAME of
#       `--classifier NAME=VALUE` must be a [classifier] key. In README.md and docs/, a code span that starts
#       with --option names options with no command: each must be an option of orientd or orientctl
#       (BENCHMARKS.md and RELIABILITY.md name compilers' options that way, and docs/development/ the test fixtures',
#       so they are exempt). `make TARGET`
#       must name a target of the Makefile.
#    3. Settings the docs name. The program's settings are the keys `orientd check-config /dev/null` prints
#       (from Sources/OrientServer/Configuration/DaemonSetting+Table.swift). A settings table is a markdown
#       table whose header's first cell is `key` (top-level keys) or `[classifier] key`; each row's first cell
#       is one key in a code span, which must be one of the program's. A code span `key = value`, and each
#       `key = value` line of a ```ini block (an example file; `[classifier]` starts that section), name one too.
#    4. The other way round. docs/configuration.md's settings tables list every setting; every subcommand of
#       orientd and orientctl is invoked somewhere; every option (but --help, and --version below the top
#       level) is named in an invocation of its subcommand or at its tool's top level. An option of
#       `orientd run` that stands for a setting ("(key NAME)" in its --help) is documented by that key's row.
#    5. BENCHMARKS.md's summary. Each row of the first table under "## Summary against the targets" is at most 400
#       characters: one line per target with its latest figure; the runs before it belong in its section.
#
# C. The version: `orientd --version`, the newest section of NEWS.md, and the debian/changelog that
#    scripts/build-deb.sh writes from it (scripts/news-to-changelog.sh, run here into a temporary file) agree.
#
# Usage: scripts/check-docs.sh DOCS_DIR BIN_DIR   (DOCS_DIR: what `make docs` wrote; BIN_DIR: the binaries)
set -euo pipefail
docs=$1
bin=$(cd "$2" && pwd)
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

# B: run from the repository's root, where the markdown files are.
cd "$(dirname "$0")/.."
python3 scripts/check-markdown.py "$bin"

# C
version=$("$bin/orientd" --version)
news=$(sed -nE 's/^## ([^ ]+) .*/\1/p' NEWS.md | head -n 1)
[ "$news" = "$version" ] || fail "NEWS.md's newest section is ${news:-missing}, but orientd --version says $version"
changelog=$(mktemp)
trap 'rm -f "$changelog"' EXIT
scripts/news-to-changelog.sh "$version" "orientd <check-docs@orientd.invalid>" "$(date -R)" > "$changelog" ||
    fail "debian/changelog cannot be written from NEWS.md"
packaged=$(dpkg-parsechangelog -l "$changelog" -S Version)
[ "$packaged" = "$version" ] || fail "debian/changelog would say $packaged, but orientd --version says $version"
echo "check-docs: orientd --version, NEWS.md and debian/changelog agree on $version"
