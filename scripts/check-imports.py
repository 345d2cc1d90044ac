#!/usr/bin/env python3
"""Fails when a target imports a module that Package.swift does not declare among its dependencies.

Reads the package through `swift package dump-package`, then every Swift file of each target (its `path`, or
Sources/NAME and Tests/NAME), and compares the `import` lines with the target's dependencies (targets by name,
products by name: every product used here is named after its module). The toolchain's own modules need no
declaration. Usage: scripts/check-imports.py [SWIFT]
"""
import json
import os
import re
import subprocess
import sys

TOOLCHAIN = {"Glibc", "Foundation", "FoundationEssentials", "FoundationXML", "Synchronization", "Testing", "XCTest", "Dispatch",
             "_Concurrency", "Swift"}
IMPORT = re.compile(r"^\s*(?:@testable\s+|@_exported\s+|@preconcurrency\s+)*import\s+(?:struct\s+|enum\s+|class\s+|func\s+)?(\w+)")


def main():
    swift = sys.argv[1] if len(sys.argv) > 1 else "swift"
    package = json.loads(subprocess.run([swift, "package", "dump-package"], check=True, capture_output=True,
                                        text=True).stdout)
    problems = []
    for target in package["targets"]:
        name = target["name"]
        declared = {name}
        for dependency in target["dependencies"]:
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    declared.add(dependency[kind][0])
        folder = target.get("path") or ("Tests" if target["type"] == "test" else "Sources") + "/" + name
        if target["type"] == "system":
            continue
        for root, _, files in os.walk(folder):
            for file in files:
                if not file.endswith(".swift"):
                    continue
                path = os.path.join(root, file)
                with open(path) as source:
                    for number, line in enumerate(source, 1):
                        match = IMPORT.match(line)
                        if match and match.group(1) not in declared | TOOLCHAIN:
                            problems.append(f"{path}:{number}: {name} imports {match.group(1)}, "
                                            "which Package.swift does not declare")
    for problem in problems:
        print(problem)
    print(f"imports: {len(package['targets'])} targets checked, {len(problems)} undeclared")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
