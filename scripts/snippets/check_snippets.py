#!/usr/bin/env python3
"""Compiles the Swift code blocks of LazyInject's documentation; see scripts/check-snippets."""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

FRAGMENT = re.compile(r"^\s*<!--\s*snippet:\s*fragment\s*-->\s*$")
FENCE_OPEN = re.compile(r"^(\s*)```\s*(\w*)\s*$")
DECL_START = re.compile(
    r"^(import|class|struct|enum|protocol|extension|func|typealias|actor|final|public|private|"
    r"fileprivate|internal|open|nonisolated|indirect|@)"
)
DECL_WORDS = {
    "class", "struct", "enum", "protocol", "extension", "func", "typealias", "actor", "var",
    "let", "init", "subscript", "import",
}
IMPORT = re.compile(r"^\s*(@\w+\s+)*import\s")
NAMING_WORDS = {
    "class", "struct", "enum", "protocol", "actor", "typealias", "func", "extension", "let", "var",
}


class Block:
    """One fenced ```swift block: where it is, and its lines."""

    def __init__(self, path, line, lines, fragment):
        self.path = path  # absolute path of the file holding the block
        self.line = line  # line of the block's first code line, 1-based
        self.lines = lines
        self.fragment = fragment
        self.is_manifest = any(l.strip() == "import PackageDescription" for l in lines)

    @property
    def end(self):
        return self.line + len(self.lines) - 1


def markdown_blocks(path, text_lines, line_of):
    """The ```swift blocks of markdown lines; line_of maps an index to its line in `path`."""
    blocks = []
    i = 0
    while i < len(text_lines):
        match = FENCE_OPEN.match(text_lines[i])
        if not match:
            i += 1
            continue
        indent, language = match.group(1), match.group(2)
        start = i + 1
        end = start
        while end < len(text_lines) and text_lines[end].strip() != "```":
            end += 1
        if language == "swift":
            fragment = i > 0 and FRAGMENT.match(text_lines[i - 1]) is not None
            code = [l[len(indent):] if l.startswith(indent) else l.lstrip() for l in text_lines[start:end]]
            blocks.append(Block(path, line_of(start), code, fragment))
        i = end + 1
    return blocks


def doc_comment_blocks(path):
    """The ```swift blocks of the `///` comments of a Swift source file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith("///"):
            i += 1
            continue
        comment, numbers = [], []
        while i < len(lines) and lines[i].lstrip().startswith("///"):
            text = lines[i].lstrip()[3:]
            comment.append(text[1:] if text.startswith(" ") else text)
            numbers.append(i + 1)
            i += 1
        blocks += markdown_blocks(path, comment, lambda index, numbers=numbers: numbers[index])
    return blocks


def scan(line, depth, state):
    """Returns the bracket depth after `line` and the words it has at depth 0.

    `state` carries an open block comment or multi-line string across lines.
    """
    words = []
    i = 0
    word = ""
    while i < len(line):
        c = line[i]
        if state["mode"] == "block":
            if line.startswith("*/", i):
                state["mode"] = None
                i += 2
                continue
            i += 1
            continue
        if state["mode"] == "multiline":
            if line.startswith('"""', i):
                state["mode"] = None
                i += 3
                continue
            i += 1
            continue
        if state["mode"] == "string":
            if c == "\\":
                i += 2
                continue
            if c == '"':
                state["mode"] = None
            i += 1
            continue
        if c.isalnum() or c == "_":
            word += c
            i += 1
            continue
        if word and depth == 0:
            words.append(word)
        word = ""
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["mode"] = "block"
            i += 2
            continue
        if line.startswith('"""', i):
            state["mode"] = "multiline"
            i += 3
            continue
        if c == '"':
            state["mode"] = "string"
        elif c in "{([":
            depth += 1
        elif c in "})]":
            depth -= 1
        i += 1
    if word and depth == 0:
        words.append(word)
    if state["mode"] == "string":
        state["mode"] = None
    return depth, words


class Item:
    """A top-level declaration or statement of a block, with its lines."""

    def __init__(self, kind, first_line, code):
        self.kind = kind  # "decl" or "stmt"
        self.attributed = code.startswith("@")  # waits for its declaration when only attributes
        self.first_line = first_line  # index in the block
        self.lines = []
        self.words = []


def split_items(lines):
    """Splits a block into top-level declarations (kept at file scope) and statements."""
    items = []
    pending = []  # blank and comment lines, given to the next item
    depth = 0
    state = {"mode": None}
    current = None
    for index, line in enumerate(lines):
        stripped = line.strip()
        starts_new = depth == 0 and state["mode"] is None
        if starts_new and current is not None:
            attribute_only = (
                current.attributed
                and not (DECL_WORDS & set(current.words))
            )
            if attribute_only or stripped.startswith(".") or stripped.startswith("}"):
                starts_new = False
        if starts_new and (stripped == "" or stripped.startswith("//")):
            pending.append((index, line))
            depth, _ = scan(line, depth, state)
            continue
        if starts_new:
            kind = "decl" if DECL_START.match(stripped) else "stmt"
            current = Item(kind, pending[0][0] if pending else index, stripped)
            items.append(current)
            current.lines += [l for _, l in pending]
            pending = []
        elif pending:
            current.lines += [l for _, l in pending]
            pending = []
        depth, words = scan(line, depth, state)
        current.lines.append(line)
        current.words += words
    if pending and current is not None:
        current.lines += [l for _, l in pending]
    return items


def declared_names(items):
    """The names the declarations among `items` declare (not the types they extend)."""
    names = set()
    for item in items:
        if item.kind != "decl":
            continue
        words = item.words
        for i, word in enumerate(words[:-1]):
            if word in NAMING_WORDS:
                if word != "extension":
                    names.add(words[i + 1])
                break
    return names


def location(path, line):
    return '#sourceLocation(file: "%s", line: %d)' % (path, line)


def block_source(block, number):
    """The Swift file for one block: declarations at file scope, statements in a function.

    A block that has `import` lines of its own gets no other import (but UIKit's stand-ins): a
    reader copies its imports, so they must be complete. One without is app code, read with
    `import LazyInject`; a block of a doc comment, with the imports of the libraries' code
    around it.
    """
    items = split_items(block.lines)
    # UIKitStandIns: UIKit's signatures, as a module of its own (a module named UIKit would make
    # Swift Testing look for its UIKit cross-import overlay).
    imports = ["UIKitStandIns"]
    if not any(IMPORT.match(line) for line in block.lines):
        imports.append("LazyInject")
        if block.path.endswith(".swift"):
            imports += ["LazyInjectChecks", "LazyInjectTesting", "Testing", "XCTest"]
    out = ["import %s" % name for name in imports] + [""]
    header = len(out)
    statements = []
    for item in items:
        if item.kind == "decl":
            out.append(location(block.path, block.line + item.first_line))
            out += item.lines
        else:
            statements.append(item)
    if statements:
        is_async = any(re.search(r"\bawait\b", l) for item in statements for l in item.lines)
        if len(out) > header:
            out.append("#sourceLocation()")
        out.append(
            "@MainActor func _snippet%d()%s throws {" % (number, " async" if is_async else "")
        )
        for item in statements:
            out.append(location(block.path, block.line + item.first_line))
            out += item.lines
        out.append("#sourceLocation()")
        out.append("}")
    elif len(out) > header:
        out.append("#sourceLocation()")
    return "\n".join(out) + "\n", declared_names(items)


def prelude_source(path, module_names):
    """The stand-in types of `path`, less those the module's blocks declare themselves and those
    whose declaration names a dropped one (a subclass, an extension)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    items = split_items(lines)
    dropped = set(module_names)
    kept = {id(item) for item in items}
    changed = True
    while changed:
        changed = False
        for item in items:
            if id(item) in kept and item.kind == "decl" and dropped & set(item.words):
                kept.discard(id(item))
                dropped |= declared_names([item])
                changed = True
    out = []
    for item in items:
        if id(item) in kept:
            out.append(location(path, item.first_line + 1))
            out += item.lines
    out.append("#sourceLocation()")
    return "\n".join(out) + "\n"


def module_name(path, root):
    relative = os.path.relpath(path, root)
    stem = os.path.splitext(os.path.basename(relative))[0]
    if relative.startswith("Sources/") and relative.endswith(".swift"):
        stem = "Doc_" + relative.split("/")[1] + "_" + stem
    return "Snippets_" + re.sub(r"\W", "_", stem)


def write_if_changed(path, text):
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# The configurations every block compiles in, with warnings as errors: an Xcode 26 app target
# (default main-actor isolation, approachable concurrency) in Swift 6 mode; a classic Swift 6
# app; and the Xcode template in Swift 5 mode (default main-actor isolation, approachable
# concurrency, which turns on in Swift 5 mode what Swift 6 mode has already).
CONFIGURATIONS = {
    "main-actor": """[
      .defaultIsolation(MainActor.self),
      .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
      .enableUpcomingFeature("InferIsolatedConformances"),
    ]""",
    "classic": "[]",
    "swift5": """[
      .swiftLanguageMode(.v5),
      .defaultIsolation(MainActor.self),
      .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
      .enableUpcomingFeature("InferIsolatedConformances"),
      .enableUpcomingFeature("InferSendableFromCaptures"),
      .enableUpcomingFeature("GlobalActorIsolatedTypesUsability"),
      .enableUpcomingFeature("DisableOutwardActorInference"),
    ]""",
}


def package_manifest(root, modules):
    targets = "\n".join(
        '    .testTarget(name: "%s", dependencies: libraries, path: "Tests/%s",'
        " swiftSettings: appSettings)," % (m, m)
        for m in modules
    )
    configurations = "\n".join(
        '  case "%s": %s' % (name, settings.replace("\n", "\n  ")) for name, settings in CONFIGURATIONS.items()
    )
    return """// swift-tools-version:6.2
// Generated by scripts/check-snippets: one test target per documentation file (a block whose
// declarations clash with an earlier block's gets a target of its own), built in the
// configuration SNIPPETS_CONFIGURATION names, with warnings as errors; and the UIKit stand-ins,
// a module of their own as UIKit is.
import PackageDescription

let libraries: [Target.Dependency] = [
  .product(name: "LazyInject", package: "LazyInject"),
  .product(name: "LazyInjectTesting", package: "LazyInject"),
  .product(name: "LazyInjectChecks", package: "LazyInject"),
  "UIKitStandIns",
]

let configuration: [SwiftSetting] = {
  switch Context.environment["SNIPPETS_CONFIGURATION"] ?? "main-actor" {
%s
  default: fatalError("unknown SNIPPETS_CONFIGURATION")
  }
}()

let appSettings = configuration + [.unsafeFlags(["-warnings-as-errors"])]

let package = Package(
  name: "LazyInjectSnippets",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  dependencies: [.package(name: "LazyInject", path: "%s")],
  targets: [
    .target(
      name: "UIKitStandIns", path: "UIKitStandIns",
      swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),
%s
  ],
  swiftLanguageModes: [.v6]
)
""" % (configurations, root, targets)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--scratch", required=True)
    parser.add_argument("--doc-comments", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    root = os.path.realpath(args.root)
    scratch = os.path.realpath(args.scratch)
    started = time.time()

    documents = [os.path.join(root, "README.md")]
    catalog = os.path.join(root, "Sources/LazyInject/Documentation.docc")
    documents += sorted(
        os.path.join(catalog, name) for name in os.listdir(catalog) if name.endswith(".md")
    )
    blocks_by_document = []
    for document in documents:
        with open(document, encoding="utf-8") as f:
            lines = f.read().split("\n")
        blocks_by_document.append(
            (document, markdown_blocks(document, lines, lambda index: index + 1))
        )
    if args.doc_comments:
        for library in ("LazyInject", "LazyInjectChecks", "LazyInjectTesting"):
            for folder, _, files in sorted(os.walk(os.path.join(root, "Sources", library))):
                for name in sorted(files):
                    if name.endswith(".swift"):
                        path = os.path.join(folder, name)
                        blocks = doc_comment_blocks(path)
                        if blocks:
                            blocks_by_document.append((path, blocks))

    package = os.path.join(scratch, "package")
    prelude = os.path.join(root, "scripts/snippets/StandIns.swift")
    modules = {}  # module name -> {file name: source}
    checked, skipped, manifests = [], [], []
    names_in = {}  # module name -> the names its blocks declare
    block_of_file = {}  # "module/LineN.swift" -> the block it holds
    for document, blocks in blocks_by_document:
        base = module_name(document, root)
        for block in blocks:
            if block.fragment:
                skipped.append(block)
                continue
            checked.append(block)
            if block.is_manifest:
                manifests.append(block)
                continue
            source, names = block_source(block, block.line)
            module = base
            suffix = 1
            while names & names_in.get(module, set()):
                suffix += 1
                module = "%s_%d" % (base, suffix)
            names_in.setdefault(module, set()).update(names)
            modules.setdefault(module, {})["Line%d.swift" % block.line] = source
            block_of_file[os.path.join(module, "Line%d.swift" % block.line)] = block
    for module, files in modules.items():
        files["AppStandIns.swift"] = prelude_source(prelude, names_in.get(module, set()))

    tests = os.path.join(package, "Tests")
    if os.path.isdir(tests):
        for module in os.listdir(tests):
            if module not in modules:
                shutil.rmtree(os.path.join(tests, module))
            else:
                for name in os.listdir(os.path.join(tests, module)):
                    if name not in modules[module]:
                        os.remove(os.path.join(tests, module, name))
    for module, files in modules.items():
        for name, source in files.items():
            write_if_changed(os.path.join(tests, module, name), source)
    write_if_changed(os.path.join(package, "Package.swift"), package_manifest(root, sorted(modules)))
    with open(os.path.join(root, "scripts/snippets/UIKitStandIns.swift"), encoding="utf-8") as f:
        write_if_changed(os.path.join(package, "UIKitStandIns", "UIKitStandIns.swift"), f.read())

    failures = []
    for block in manifests:
        folder = os.path.join(scratch, "manifests", module_name(block.path, root) + "_%d" % block.line)
        write_if_changed(os.path.join(folder, "Package.swift"), "\n".join(block.lines) + "\n")
        result = subprocess.run(
            ["swift", "package", "dump-package", "--package-path", folder],
            capture_output=True, text=True,
        )
        if result.returncode != 0:
            output = re.sub(
                re.escape(os.path.join(folder, "Package.swift")) + r":(\d+)",
                lambda m: "%s:%d" % (block.path, block.line + int(m.group(1)) - 1),
                result.stdout + result.stderr,
            )
            failures.append((block, output))

    output = ""
    failed = False
    for configuration in CONFIGURATIONS:
        print("Building %d Swift blocks in %d modules, configuration %s (%s) ..." % (
            len(checked) - len(manifests), len(modules), configuration, package), flush=True)
        # One scratch path for the three: a configuration changes the blocks' targets only, so
        # the library builds once. No debug information: the blocks are compiled, never run.
        command = [
            "swift", "build", "--build-tests", "--package-path", package,
            "--scratch-path", os.path.join(scratch, "build"), "-Xswiftc", "-gnone",
        ]
        environment = dict(os.environ, SNIPPETS_CONFIGURATION=configuration)
        result = subprocess.run(command, capture_output=True, text=True, env=environment)
        each_output = result.stdout + result.stderr
        if result.returncode != 0:
            failed = True
            # The build stops at the first module that fails: build each module on its own, so
            # that every failing block is reported.
            for module in sorted(modules):
                each = subprocess.run(
                    [c for c in command if c != "--build-tests"] + ["--target", module],
                    capture_output=True, text=True, env=environment,
                )
                each_output += each.stdout + each.stderr
        if args.verbose:
            print(each_output, flush=True)
        output += re.sub(r"(error: .*)$", r"\1 [%s]" % configuration, each_output, flags=re.M)

    def where(block):
        return "%s:%d" % (os.path.relpath(block.path, root), block.line - 1)

    diagnostics = re.compile(r"^(/[^:\n]+):(\d+):(\d+): error: .*$", re.M)
    errors_by_block = {}
    unmapped = []
    for match in diagnostics.finditer(output):
        path, line = match.group(1), int(match.group(2))
        owner = next(
            (b for b in checked if b.path == path and b.line <= line <= b.end), None
        )
        if owner is None:
            unmapped.append(match.group(0))
        else:
            errors_by_block.setdefault(id(owner), (owner, []))[1].append(match.group(0))
    # An error in a macro's expansion (the traits of `@Suite` or `@Test`) names no source line:
    # the note after it names the generated file the macro is in, and so the block.
    in_expansion = re.compile(
        r"^macro expansion [^\n]*: error: (.*)$(?:\n(?!macro expansion|/).*)*?"
        r"\n`- [^\n]*/Tests/(\w+/Line\d+\.swift):\d+:\d+: note: expanded code originates here",
        re.M,
    )
    for match in in_expansion.finditer(output):
        owner = block_of_file.get(match.group(2))
        if owner is None:
            unmapped.append(match.group(0))
        else:
            message = "%s: error: %s (in a macro's expansion)" % (where(owner), match.group(1))
            errors_by_block.setdefault(id(owner), (owner, []))[1].append(message)
    for owner, errors in errors_by_block.values():
        failures.append((owner, "\n".join(dict.fromkeys(errors))))
    if failed and not errors_by_block and not unmapped:
        unmapped.append(output.strip())

    for block, message in failures:
        print("\nFAILED: the block at %s does not compile:" % where(block))
        print(message.rstrip())
    if unmapped:
        print("\nFAILED: errors outside the documentation's blocks (stand-ins or the library):")
        print("\n".join(dict.fromkeys(unmapped)))
    elapsed = time.time() - started
    print("\nChecked %d blocks (%d Swift, %d package manifests) in %d files; skipped %d fragments"
          " (%.0f s)." % (len(checked), len(checked) - len(manifests), len(manifests),
                          len(blocks_by_document), len(skipped), elapsed))
    for block in skipped:
        print("  fragment: %s" % where(block))
    if failures or unmapped or failed:
        print("check-snippets: %d block(s) failed." % len(failures))
        return 1
    print("check-snippets: every block compiles.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
