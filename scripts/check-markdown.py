#!/usr/bin/env python3
"""Checks the markdown documentation against itself and against the programs it describes: links, and the
settings, commands and options the docs name, both ways. The rules are written in scripts/check-docs.sh's
header, which runs this.

Usage: scripts/check-markdown.py BIN_DIR    (from the repository's root; BIN_DIR holds orientd and orientctl)
       scripts/check-markdown.py --links FILE...
The second form checks only rule 1, the links, of the markdown FILEs wherever they are: scripts/check-deb.sh and
scripts/check-install.sh run it on the installed README.md and docs/*.md, whose links must lead to files installed
with them.
"""
import pathlib
import re
import subprocess
import sys

TOOLS = ("orientd", "orientctl")
CONFIGURATION_DOC = pathlib.Path("docs/configuration.md")
CLASSIFIER = "classifier"


TOP_LEVEL_DOCS = ("README.md", "PROTOCOL.md", "BENCHMARKS.md", "RELIABILITY.md", "NEWS.md")
SUMMARY_DOC = pathlib.Path("BENCHMARKS.md")
SUMMARY_HEADING = "## Summary against the targets"
SUMMARY_ROW_LIMIT = 400     # characters: one line per target, a person reads it (issue 54)


# What `make install` puts in the documentation folder (with docs/ under it), as the package ships it: the files
# the installed documents may link to. The rest (docs/development/, the sources) is there only in the repository.
INSTALLED_DOCS = TOP_LEVEL_DOCS + ("LICENSE", "Systemd/orientd.conf", "docs/*.md", "docs/*.svg")
DEVELOPMENT_DOCS = pathlib.Path("docs/development")


def markdown_files():
    files = [pathlib.Path(name) for name in TOP_LEVEL_DOCS]
    return ([path for path in files if path.exists()] + sorted(pathlib.Path("docs").glob("*.md"))
            + sorted(DEVELOPMENT_DOCS.glob("*.md")))


def installed(path):
    """Whether `path` (relative to the repository) is one of the installed documentation files."""
    return any(path.match(pattern) and len(path.parts) == len(pathlib.Path(pattern).parts) for pattern in INSTALLED_DOCS)


errors = []


def error(path, line, message):
    """A problem at a file's line, or in the docs as a whole when path is None."""
    errors.append(message if path is None else f"{path}:{line}: {message}")


# --- What the programs have ---------------------------------------------------------------------------------

def run(command):
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


class Command:
    """A tool or one of its subcommands, as its --help describes it."""

    def __init__(self, help_text):
        self.options = set()        # every --option spelling
        self.takes_value = set()    # the options followed by a value
        self.setting_keys = {}      # option -> configuration key (orientd run's settings)
        self.short_options = {}     # -o -> --output
        self.subcommands = []
        section = None
        entry = None                # (option names, description lines) of the entry being read
        entries = []
        for line in help_text.splitlines():
            heading = re.match(r"^([A-Z]{2,})\b", line)
            if heading:
                section = heading.group(1)
                continue
            if section == "SUBCOMMANDS":
                match = re.match(r"^  ([a-z][a-z-]*)(?:\s|$)", line)
                if match:
                    self.subcommands.append(match.group(1))
                continue
            if section not in ("OPTIONS", "SETTINGS"):
                continue
            # An entry starts with its spellings: -o, --output <file.svg>, or --dbus, --no-dbus.
            match = re.match(r"^  ((?:--?[a-z0-9][a-z0-9-]*(?: <[^>]+>)?(?:, )?)+)", line)
            if match:
                names = re.findall(r"--[a-z0-9][a-z0-9-]*", match.group(1))
                self.options.update(names)
                for short in re.findall(r"(?<![-\w])-[a-zA-Z0-9]\b", match.group(1)):
                    self.short_options[short] = names[0]
                if "<" in match.group(1):
                    self.takes_value.update(names)
                entry = (names, [line[match.end():].strip()])
                entries.append(entry)
            elif entry is not None:
                entry[1].append(line.strip())
        for names, description in entries:
            key = re.search(r"\(key ([a-z0-9-]+)\)", " ".join(description))
            if key:
                for name in names:
                    self.setting_keys[name] = key.group(1)


def load_programs(bin_dir):
    programs = {}
    for tool in TOOLS:
        top = Command(run([f"{bin_dir}/{tool}", "--help"]))
        if not top.subcommands:
            sys.exit(f"check-markdown: {tool} --help lists no subcommands")
        subs = {name: Command(run([f"{bin_dir}/{tool}", name, "--help"]))
                for name in top.subcommands if name != "help"}
        programs[tool] = (top, subs)
    return programs


def load_settings(bin_dir):
    """{None: top-level keys, "classifier": that section's keys}, as check-config prints them."""
    keys = {None: set(), CLASSIFIER: set()}
    section = None
    for line in run([f"{bin_dir}/orientd", "check-config", "/dev/null"]).splitlines()[1:]:
        if line.strip() == f"[{CLASSIFIER}]":
            section = CLASSIFIER
            continue
        match = re.match(r"^ +([a-z][a-z0-9-]*):", line)
        if match:
            keys[section].add(match.group(1))
    if not keys[None] or not keys[CLASSIFIER]:
        sys.exit("check-markdown: orientd check-config printed no settings")
    return keys


def makefile_targets():
    targets = set()
    for line in pathlib.Path("Makefile").read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.-]+(?: [A-Za-z0-9_.-]+)*)\s*:(?![:=])", line)
        if match:
            targets.update(match.group(1).split())
    return targets


# --- Reading markdown --------------------------------------------------------------------------------------

class Document:
    """A markdown file's headings, links, code spans, code-block lines and tables, with their line numbers."""

    def __init__(self, path):
        self.path = path
        self.anchors = set()
        self.links = []             # (line, target)
        self.command_lines = []     # (line, text, is_span)
        self.tables = []            # (line, rows as lists of cells)
        self.configuration_files = []   # the lines of each ```ini block: an example configuration file
        lines = path.read_text().splitlines()
        fence = None
        paragraph = []              # (line number, text)
        table = []
        slugs = {}
        block_line = None
        in_block = False
        fence_is_ini = False

        def end_paragraph():
            if paragraph:
                self.read_paragraph(paragraph)
                paragraph.clear()
            if table:
                self.tables.append((table[0][0], [cells for _, cells in table]))
                table.clear()

        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if fence:
                if stripped.startswith(fence):
                    fence = None
                    continue
                if fence_is_ini:
                    self.configuration_files[-1].append((number, line))
                # A line continues the one above after a backslash, or when it is indented and starts with an
                # option, as a synopsis wrapped under its command does.
                continues = re.match(r"^\s+(\[|--)", line) is not None
                if block_line is not None or (continues and in_block):
                    start, above, _ = self.command_lines[-1]
                    self.command_lines[-1] = (start, above.rstrip("\\") + " " + line.strip(), False)
                else:
                    self.command_lines.append((number, line, False))
                block_line = number if line.endswith("\\") else None
                in_block = True
                continue
            match = re.match(r"^(```+|~~~+)\s*(\S*)", stripped)
            if match:
                end_paragraph()
                fence = match.group(1)
                fence_is_ini = match.group(2) == "ini"
                if fence_is_ini:
                    self.configuration_files.append([])
                block_line = None
                in_block = False
                continue
            heading = re.match(r"^#{1,6} +(.*?) *#*$", line)
            if heading:
                end_paragraph()
                slug = github_slug(heading.group(1))
                count = slugs.get(slug, 0)
                slugs[slug] = count + 1
                self.anchors.add(slug if count == 0 else f"{slug}-{count}")
                paragraph.append((number, line))
                end_paragraph()
                continue
            if not stripped:
                end_paragraph()
                continue
            if stripped.startswith("|"):
                table.append((number, table_cells(stripped)))
            paragraph.append((number, line))
        end_paragraph()

    def read_paragraph(self, lines):
        first = lines[0][0]
        text = "\n".join(line for _, line in lines)
        # Code spans: a run of backticks, then text, then the same run.
        spans = list(re.finditer(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", text, re.S))
        for span in spans:
            line = first + text.count("\n", 0, span.start())
            self.command_lines.append((line, span.group(2).replace("\n", " ").strip(), True))
        outside = re.sub(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text,
                         flags=re.S)
        for link in re.finditer(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", outside):
            self.links.append((first + outside.count("\n", 0, link.start()), link.group(1)))


def github_slug(heading):
    """The anchor GitHub gives a heading: its text without markup, lower case, punctuation dropped, spaces as -."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"<[^>]+>", "", text).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def table_cells(row):
    """A table row's cells; a | inside a cell is written \\|."""
    row = row.strip()[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", row)]


# --- The checks ----------------------------------------------------------------------------------------------

def check_links(documents, in_repository=True):
    """Each link resolves; in the repository, an installed document's links lead only to installed files (in an
    installed tree, `--links`, every file there is installed)."""
    by_path = {doc.path.resolve(): doc for doc in documents}
    for doc in documents:
        for line, target in doc.links:
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue
            file_part, _, anchor = target.partition("#")
            path = (doc.path.parent / file_part).resolve() if file_part else doc.path.resolve()
            if not path.exists():
                error(doc.path, line, f"link to {target}: {file_part} does not exist")
                continue
            if in_repository and file_part and installed(doc.path) and not installed(
                    relative := path.relative_to(pathlib.Path.cwd().resolve())):
                error(doc.path, line, f"link to {target}: {relative} is not installed with the documentation, so the "
                      "link breaks in the package; name it in plain text, or install it")
            if not anchor:
                continue
            target_doc = by_path.get(path)
            if target_doc is None and path.suffix == ".md":
                cwd = pathlib.Path.cwd().resolve()
                target_doc = Document(path.relative_to(cwd) if path.is_relative_to(cwd) else path)
            if target_doc is None:
                error(doc.path, line, f"link to {target}: an anchor in a file that is not markdown")
            elif anchor not in target_doc.anchors:
                error(doc.path, line, f"link to {target}: {target_doc.path} has no heading with anchor #{anchor}")


def invocations(text, is_span):
    """The pieces of a command line: lists of words, quoted text and comments dropped."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", " QUOTED ", text)
    text = re.split(r"['\"]", text)[0]                  # a quote that ends on a later line
    if not is_span:
        text = re.split(r"(?:^|\s)#", text)[0]           # a shell comment
    text = text.replace("[", " ").replace("]", " ").replace("...", " ").replace("…", " ")
    for piece in re.split(r"&&|\|\||\s\|\s|;|&", text):
        words = piece.split()
        while words and (words[0] in ("sudo", "exec", "$") or re.match(r"^[A-Z_][A-Z0-9_]*=", words[0])):
            words.pop(0)
        if words:
            yield words


def tool_of(word):
    match = re.match(r"^(?:[A-Za-z]+=)?(?:\S*/)?(orientd|orientctl)$", word)
    return match.group(1) if match else None


def option_name(word):
    match = re.match(r"^(--[a-z0-9][a-z0-9-]*)(=.*)?$", word)
    return match.group(1) if match else None


def is_placeholder(word):
    return word.startswith("<") or re.match(r"^[A-Z][A-Z0-9_-]*$", word) is not None


def check_names(documents, programs, settings, targets, named):
    every_option = set()
    for top, subs in programs.values():
        every_option |= top.options
        for sub in subs.values():
            every_option |= sub.options
    for doc in documents:
        if doc.path.name == "NEWS.md":
            continue
        for line, text, is_span in doc.command_lines:
            if is_span:
                setting = re.match(r"^([a-z][a-z0-9-]*) = \S", text)
                if setting and setting.group(1) not in settings[None] | settings[CLASSIFIER]:
                    error(doc.path, line, f"`{text}`: orientd has no setting {setting.group(1)}")
                # The user docs; docs/development/ names the fixtures' and other tools' options too.
                if text.startswith("--") and doc.path.parts[0] in ("README.md", "docs") and not doc.path.is_relative_to(DEVELOPMENT_DOCS):
                    for word in text.split():
                        name = option_name(word)
                        if name and name not in every_option:
                            error(doc.path, line, f"`{text}`: neither orientd nor orientctl has {name}")
            for words in invocations(text, is_span):
                if words[0] == "make":
                    for word in words[1:]:
                        if word.startswith("-") or "=" in word:
                            continue
                        if word not in targets:
                            error(doc.path, line, f"`{text}`: the Makefile has no target {word}")
                        break
                tool = tool_of(words[0])
                if tool:
                    check_invocation(doc, line, text, tool, words[1:], programs, settings, named)


def check_invocation(doc, line, text, tool, words, programs, settings, named):
    top, subs = programs[tool]
    command, subcommand = top, None
    skip_value = False
    for index, word in enumerate(words):
        if skip_value:
            skip_value = False
            continue
        name = option_name(word) or command.short_options.get(word)
        if name is None:
            if word.startswith("-") or subcommand is not None:
                continue                        # an option spelled some other way, or an argument
            if is_placeholder(word):
                return                          # `orientd SUBCOMMAND --help`: nothing more to check
            if word not in subs:
                error(doc.path, line, f"`{text}`: {tool} has no subcommand {word}")
                return
            subcommand, command = word, subs[word]
            named.add((tool, subcommand, None))
            continue
        if name not in command.options:
            where = f"{tool} {subcommand}" if subcommand else tool
            error(doc.path, line, f"`{text}`: {where} has no option {name}")
            continue
        named.add((tool, subcommand, name))
        if name in command.takes_value and "=" not in word:
            skip_value = True
            if name == "--classifier" and index + 1 < len(words):
                key = words[index + 1].split("=")[0]
                if not is_placeholder(key) and key not in settings[CLASSIFIER]:
                    error(doc.path, line, f"`{text}`: there is no [classifier] setting {key}")


def check_configuration_examples(documents, settings):
    for doc in documents:
        for lines in doc.configuration_files:
            section = None
            for line, text in lines:
                header = re.match(r"^\s*\[([a-z]+)\]\s*$", text)
                if header:
                    section = header.group(1)
                    if section not in settings:
                        error(doc.path, line, f"orientd's configuration has no section [{section}]")
                    continue
                assignment = re.match(r"^\s*([a-z][a-z0-9-]*)\s*=", text)
                if assignment and assignment.group(1) not in settings.get(section, set()):
                    where = "" if section is None else f" in [{section}]"
                    error(doc.path, line, f"orientd has no setting {assignment.group(1)}{where}")


def check_settings_tables(documents, settings):
    listed = {None: set(), CLASSIFIER: set()}
    for doc in documents:
        for line, rows in doc.tables:
            header = rows[0][0] if rows and rows[0] else ""
            section = {"key": None, f"[{CLASSIFIER}] key": CLASSIFIER}.get(header, "none")
            if section == "none":
                continue
            for offset, row in enumerate(rows[2:], 2):
                match = re.fullmatch(r"`([^`]+)`", row[0])
                where = "a top-level" if section is None else f"a [{section}]"
                if not match:
                    error(doc.path, line + offset, f"a settings table's row starts with {row[0]!r}, not a `key`")
                elif match.group(1) not in settings[section]:
                    error(doc.path, line + offset, f"`{match.group(1)}` is not {where} setting of orientd")
                elif doc.path == CONFIGURATION_DOC:
                    listed[section].add(match.group(1))
    for section, keys in settings.items():
        for key in sorted(keys - listed[section]):
            name = key if section is None else f"[{section}] {key}"
            error(CONFIGURATION_DOC, 1, f"the settings tables do not list {name}, a setting orientd has")
    return listed[None]


def check_documented(programs, named, keys_listed):
    for tool, (top, subs) in programs.items():
        for name in sorted(top.options - {"--help"}):
            if (tool, None, name) not in named:
                error(None, None, f"the docs never name {tool} {name}, which {tool} --help lists")
        for subcommand, command in subs.items():
            if (tool, subcommand, None) not in named:
                error(None, None, f"the docs never invoke {tool} {subcommand}, which {tool} --help lists")
            for name in sorted(command.options - {"--help", "--version"}):
                if (tool, subcommand, name) in named or (tool, None, name) in named:
                    continue
                key = command.setting_keys.get(name)
                if key is not None and key in keys_listed:
                    continue
                error(None, None, f"the docs never name {tool} {subcommand} {name}, which its --help lists")


def check_summary():
    """BENCHMARKS.md's summary stays short: no row of the first table under its heading over the limit."""
    if not SUMMARY_DOC.exists():
        return
    lines = SUMMARY_DOC.read_text(encoding="utf-8").splitlines()
    heading = next((number for number, line in enumerate(lines, 1) if line.strip() == SUMMARY_HEADING), None)
    if heading is None:
        error(SUMMARY_DOC, 1, f"no heading {SUMMARY_HEADING!r}, whose table is kept short")
        return
    rows = []
    for number, line in enumerate(lines[heading:], heading + 1):
        if line.startswith("#"):
            break
        if line.strip().startswith("|"):
            rows.append((number, line))
        elif rows:
            break
    if not rows:
        error(SUMMARY_DOC, heading, f"{SUMMARY_HEADING!r} has no table")
    for number, line in rows:
        if len(line) > SUMMARY_ROW_LIMIT:
            error(SUMMARY_DOC, number, f"a row of the summary is {len(line)} characters, over {SUMMARY_ROW_LIMIT}: "
                  "keep the latest figure, and the runs before it in its section")


def check_links_only(paths):
    documents = [Document(pathlib.Path(path)) for path in paths]
    check_links(documents, in_repository=False)
    for message in errors:
        print(f"check-markdown: {message}", file=sys.stderr)
    if errors:
        sys.exit(1)
    links = sum(1 for doc in documents for _, target in doc.links if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I))
    print(f"check-markdown: {len(documents)} markdown files: their {links} links to files and headings resolve")


def main():
    if sys.argv[1] == "--links":
        check_links_only(sys.argv[2:])
        return
    bin_dir = sys.argv[1]
    programs = load_programs(bin_dir)
    settings = load_settings(bin_dir)
    documents = [Document(path) for path in markdown_files()]
    named = set()
    check_links(documents)
    check_names(documents, programs, settings, makefile_targets(), named)
    keys_listed = check_settings_tables(documents, settings)
    check_configuration_examples(documents, settings)
    check_documented(programs, named, keys_listed)
    check_summary()
    for message in errors:
        print(f"check-docs: {message}", file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"check-docs: {len(documents)} markdown files: links resolve, and they name the settings, commands and "
          f"options orientd and orientctl have, all of them; BENCHMARKS.md's summary rows are at most "
          f"{SUMMARY_ROW_LIMIT} characters")


if __name__ == "__main__":
    main()
