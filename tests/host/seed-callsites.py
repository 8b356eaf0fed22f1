#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""seed-callsites.py OUTDIR PATCH... - turn every unregister_chrdev()/__unregister_chrdev()
call site of unified diffs into a function of a test module.

The inputs are the project's own: the one-arg series (kernel/bases/6.1/patches/), whose removed lines
hold every call site of Linux 6.1 in the two-arg spelling and whose added lines hold the same
sites in the one-arg spelling, and legacy-int-sites.diff (the forms that use the int result,
which 6.1 no longer has). Only lines inside hunks count; a call that spans lines is joined
with the lines that follow it on its side (its own sign, or context).

Each site becomes `int seed_site_N(void)` in OUTDIR/seed_sites.c, as written, with its
identifiers declared as static locals of the type their place gives them (major, base minor,
count: unsigned int; name: const char *; anything else, such as a variable the result is
assigned to: int), member accesses (a->b, a.b.c) as anonymous structs, and every plain
identifier under #ifndef, so a kernel macro (NR_CPUS, MINORBITS) keeps its own value. Sites
that use the call's result are inside #ifdef SEED_INT_RESULT. OUTDIR/sites.tsv lists N, side
(-/+), first line, last line, whether the site uses the result, and the text. Definitions and
declarations of the functions, and comments, are no call sites; their count goes to stderr.
"""
import re
import sys

KEYWORDS = {"if", "int", "void", "return", "else", "unsigned", "const", "char", "while",
            "sizeof", "goto"}
CALL = re.compile(r"(?<![\w])(__)?unregister_chrdev\s*\(")
PLAIN = re.compile(r"^(\(void\)\s*)?(__)?unregister_chrdev\s*\(.*\)\s*;$")
DECL = re.compile(r"^((static|inline|extern)\s+)*(int|void)\s+(__)?unregister_chrdev\s*\(")
COMMENT = re.compile(r"^(\*|/\*|//)")
IDENT = re.compile(r"[A-Za-z_]\w*")
CHAIN = re.compile(r"([A-Za-z_]\w*)((?:\s*(?:->|\.)\s*[A-Za-z_]\w*)+)")
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def call_closed(text):
    """Whether the first call in text has its closing parenthesis (strings ignored)."""
    m = CALL.search(text)
    depth = 1
    for ch in STRING.sub('""', text[m.end():]):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            return True
    return False


def call_args(text):
    """(name, top-level arguments) of the first (__)unregister_chrdev( ... ) in text."""
    m = CALL.search(text)
    fn = text[m.start():m.end()].split("(")[0].strip()
    depth, args, cur, quote = 1, [], "", False
    for i, ch in enumerate(text[m.end():]):
        if ch == '"' and (i == 0 or text[m.end() + i - 1] != "\\"):
            quote = not quote
        if not quote:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    args.append(cur.strip())
                    return fn, args
            if ch == "," and depth == 1:
                args.append(cur.strip())
                cur = ""
                continue
        cur += ch
    raise ValueError("unbalanced call: " + text)


def arg_types(fn, args):
    """The C type each argument position of fn has."""
    if fn == "unregister_chrdev":
        return ["unsigned int", "const char *"][:len(args)]
    return ["unsigned int", "unsigned int", "unsigned int", "const char *"][:len(args)]


def site_body(text):
    """The site as a complete statement."""
    if text.endswith("{"):
        return text + " }"
    if text.startswith("if") and not text.endswith(";"):
        return text + " { }"
    return text


def read_sites(paths):
    """(side, text) of every call site in the hunks of the diffs, and the skipped count."""
    sites, skipped = [], 0
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        in_hunk = False
        for i, line in enumerate(lines):
            if line.startswith("@@"):
                in_hunk = True
                continue
            if line.startswith(("diff ", "--- ", "+++ ")) or line == "-- ":
                in_hunk = False
                continue
            if not in_hunk or line[:1] not in "-+" or not CALL.search(line[1:]):
                continue
            side, text = line[0], line[1:].strip()
            if DECL.match(text) or COMMENT.match(text):
                skipped += 1
                continue
            # A call over several lines: its side's lines and context, not the other side's.
            j = i + 1
            while not call_closed(text) and j < len(lines) and lines[j][:1] and lines[j][:1] in "-+ ":
                if lines[j][:1] in (side, " "):
                    text += " " + lines[j][1:].strip()
                j += 1
            if not call_closed(text):
                raise ValueError(f"{path}:{i + 1}: unbalanced call: {text}")
            sites.append((side, text))
    return sites, skipped


def struct_decl(tree, indent):
    """C member declarations of a member tree {name: (op, subtree) or type}."""
    out = []
    for name, node in sorted(tree.items()):
        if isinstance(node, str):
            out.append(f"{indent}{node}{'' if node.endswith('*') else ' '}{name};")
        else:
            op, sub = node
            inner = "\n".join(struct_decl(sub, indent + "\t"))
            ptr = "*" if op == "->" else ""
            out.append(f"{indent}struct {{\n{inner}\n{indent}}} {ptr}{name};")
    return out


def declarations(n, fn, args, code):
    """Declarations of the identifiers a site uses."""
    types = arg_types(fn, args)
    chains, plain = {}, {}
    for arg, ctype in zip(args, types):
        bare = STRING.sub('""', arg)
        for m in CHAIN.finditer(bare):
            root, rest = m.group(1), m.group(2)
            parts = re.findall(r"(->|\.)\s*([A-Za-z_]\w*)", rest)
            op0 = parts[0][0]
            node = chains.setdefault(root, (op0, {}))[1]
            for k, (_, member) in enumerate(parts):
                if k == len(parts) - 1:
                    node[member] = ctype
                else:
                    nxt = parts[k + 1][0]
                    node = node.setdefault(member, (nxt, {}))[1]
        bare = CHAIN.sub(" ", bare)
        for m in IDENT.finditer(bare):
            ident = m.group(0)
            if re.match(r"\s*\(", bare[m.end():]) or ident in KEYWORDS:
                continue
            plain.setdefault(ident, ctype)
    out = []
    for root, (op, tree) in sorted(chains.items()):
        members = "\n".join(struct_decl(tree, "\t\t"))
        if op == "->":
            out.append(f"\tstatic struct {{\n{members}\n\t}} __seed_{root}, *{root} = &__seed_{root};")
        else:
            out.append(f"\tstatic struct {{\n{members}\n\t}} {root};")
    rest = CHAIN.sub(lambda m: m.group(1), STRING.sub('""', code))
    for ident in IDENT.findall(rest):
        if ident in KEYWORDS or ident in chains or ident in plain or ident.endswith("unregister_chrdev"):
            continue
        if re.search(r"\b" + ident + r"\s*\(", rest):
            continue
        plain[ident] = None
    for ident, ctype in sorted(plain.items()):
        out.append(f"#ifndef {ident}")
        if ctype is None:
            out.append(f"\tint {ident} __maybe_unused = 0;")
        elif ctype.endswith("*"):
            out.append(f'\tstatic {ctype}{ident} = "site{n}";')
        else:
            out.append(f"\tstatic {ctype} {ident} = {n};")
        out.append("#endif")
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: seed-callsites.py OUTDIR PATCH...")
    outdir, paths = sys.argv[1], sys.argv[2:]
    sites, skipped = read_sites(paths)
    if not sites:
        sys.exit("seed-callsites.py: no call site in " + " ".join(paths))
    out = ['// SPDX-License-Identifier: GPL-2.0-only',
           '/* Generated by tests/host/seed-callsites.py; do not edit. */',
           '#include <linux/compiler.h>', '#include <linux/fs.h>', '#include <linux/module.h>', '']
    rows = []
    for n, (side, text) in enumerate(sites, 1):
        fn, args = call_args(text)
        uses_result = 0 if PLAIN.match(text) else 1
        first = len(out) + 1
        if uses_result:
            out.append("#ifdef SEED_INT_RESULT")
        out.append(f"int seed_site_{n}(void);")
        out.append(f"int seed_site_{n}(void)")
        out.append("{")
        for decl in declarations(n, fn, args, text):
            out.extend(decl.split("\n"))
        out.append("")
        out.append("\t" + site_body(text))
        out.append("\treturn 0;")
        out.append("}")
        if uses_result:
            out.append("#endif")
        rows.append(f"{n}\t{side}\t{first}\t{len(out)}\t{uses_result}\t{text}")
        out.append("")
    out.append('MODULE_LICENSE("GPL");')
    with open(f"{outdir}/seed_sites.c", "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    with open(f"{outdir}/sites.tsv", "w", encoding="utf-8") as f:
        f.write("\n".join(rows) + "\n")
    removed = sum(1 for s, _ in sites if s == "-")
    ints = sum(1 for r in rows if r.split("\t")[4] == "1")
    print(f"{len(sites)} call sites: {removed} removed (two-arg), {len(sites) - removed} added "
          f"(one-arg), {ints} of them use the result; {skipped} declarations, definitions "
          f"or comments skipped", file=sys.stderr)


if __name__ == "__main__":
    main()
