#!/usr/bin/env bash
# Writes debian/changelog's text from NEWS.md to standard output, one entry per version, newest first, so that
# the package's history is the one users read. Called by scripts/build-deb.sh, and by scripts/check-docs.sh to
# check that NEWS.md, `orientd --version` and the changelog agree.
# Usage: scripts/news-to-changelog.sh VERSION MAINTAINER DATE
#   VERSION     what `orientd --version` prints: NEWS.md's newest section must be this version;
#   MAINTAINER  "Name <address>", as debian/control's Maintainer;
#   DATE        an RFC 2822 date for a section marked `unreleased` (only the newest may be).
#
# NEWS.md's form: a section per version, `## VERSION (YYYY-MM-DD)` or `## VERSION (unreleased)`; in it, paragraphs
# (taken as they are) and `- ` items whose continuation lines are indented. Each becomes a `  * ` item, its
# markdown links reduced to their text and the whole wrapped to 78 columns (lintian warns past 80).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 3 ] || { echo "usage: $0 VERSION MAINTAINER DATE" >&2; exit 64; }
version=$1 maintainer=$2 unreleased_date=$3

sed -E 's/\[([^]]*)\]\([^)]*\)/\1/g' NEWS.md | awk -v version="$version" -v maintainer="$maintainer" \
    -v unreleased_date="$unreleased_date" '
function fail(message) { printf "NEWS.md:%d: %s\n", NR, message > "/dev/stderr"; failed = 1; exit 1 }
# Prints one item, wrapped: "  * " before its first line, four spaces before the others.
function flush_item(    words, count, i, line) {
    if (item == "") return
    count = split(item, words, / +/)
    line = "  *"
    for (i = 1; i <= count; i++) {
        if (words[i] == "") continue
        if (length(line) + 1 + length(words[i]) > 78 && line != "  *" && line != "   ") {
            print line
            line = "   "
        }
        line = line " " words[i]
    }
    print line
    item = ""
}
function end_entry() {
    if (!entries) return
    flush_item()
    if (!items) fail("the section for " current " says nothing")
    print ""
    printf " -- %s  %s\n", maintainer, date
}
/^## / {
    end_entry()
    if (!match($0, /^## [^ ]+ \((unreleased|[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9])\)$/))
        fail("a version heading reads \"## VERSION (YYYY-MM-DD)\" or \"## VERSION (unreleased)\", not \"" $0 "\"")
    current = $2
    when = $3; gsub(/[()]/, "", when)
    if (entries == 0 && current != version)
        fail("the newest version is " current ", but orientd --version says " version)
    if (when == "unreleased") {
        if (entries > 0) fail(current " is marked unreleased, but a newer version follows it")
        date = unreleased_date
    } else {
        cmd = "date -R -u -d \"" when " 12:00\""
        cmd | getline date
        close(cmd)
    }
    if (entries > 0) print ""
    printf "orientd (%s) unstable; urgency=medium\n\n", current
    entries++; items = 0
    next
}
entries == 0 { next }                       # the title and the text before the first version
/^[ \t]*$/ { flush_item(); next }
/^- / { flush_item(); item = substr($0, 3); kind = "item"; items++; next }
/^  +[^ ]/ && kind == "item" && item != "" { sub(/^ +/, ""); item = item " " $0; next }
/^[^ #-]/ && kind == "paragraph" && item != "" { item = item " " $0; next }
/^[^ #-]/ { flush_item(); item = $0; kind = "paragraph"; items++; next }
{ fail("expected an item (\"- \"), its indented continuation, or a paragraph: \"" $0 "\"") }
END {
    if (failed) exit 1
    if (!entries) { print "NEWS.md: no version section (## VERSION (DATE))" > "/dev/stderr"; exit 1 }
    end_entry()
}'
