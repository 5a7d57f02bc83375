#!/usr/bin/env python3
"""layers.py — check that the files of a source folder form layers: no file calls, or includes, a
file that (directly or not) calls or includes it back.

    python3 tools/layers.py [--obj BUILD/obj] [--src ROOT] [-v] FOLDER...

For each FOLDER (e.g. loader):
  - the call graph, from `nm` of BUILD/obj/FOLDER/x.o for each FOLDER/x.c: a symbol defined in a.o
    and undefined in b.o gives the edge b -> a ("b calls a"; a variable counts like a function);
  - the include graph of ROOT/FOLDER/*.c and *.h: `#include "x.h"` in file f, with x.h in the same
    folder, gives the edge f -> x.h.
Every strongly connected component of more than one file is a cycle: it is reported with its files,
a shortest cycle through each of them, and the edges inside it with the symbols that make them (the
edges to cut). Exit status: 0 when every graph is acyclic, 1 when there is a cycle, 2 on a usage
error (a missing folder or object, nm failing). -v also prints each acyclic folder's layers (layer 0
calls no other file of the folder; a file of layer n calls files of layers below n only).

Only the Python standard library and `nm` (the NM environment variable, default nm) are needed.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

# nm -P symbol types (POSIX): U undefined, w/v weak undefined; everything else that is global
# (upper case, plus the weak definitions W/V and unique globals u) is a definition other files can
# reach. Local symbols (lower case t/d/b/r...) are private to their file.
UNDEFINED = {"U", "w", "v"}
GLOBAL_DEFS = set("ABCDGIRSTVWu")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
MAX_SYMBOLS = 4  # symbols shown per edge in a report


def die(message):
    """A usage error: exit status 2 (1 means a cycle)."""
    print(message, file=sys.stderr)
    sys.exit(2)


def nm_symbols(objs):
    """{object basename without .o: (defined symbols, undefined symbols)} from one nm run."""
    nm = os.environ.get("NM", "nm")
    try:
        out = subprocess.run([nm, "-A", "-P"] + objs, check=True, capture_output=True,
                             text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        die(f"layers: {nm} failed: {e}")
    syms = {os.path.basename(o)[:-2]: (set(), set()) for o in objs}
    for line in out.splitlines():
        path, sep, rest = line.partition(": ")
        fields = rest.split()
        if not sep or len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        defined, undefined = syms[os.path.basename(path)[:-2]]
        if kind in UNDEFINED:
            undefined.add(name)
        elif kind in GLOBAL_DEFS:
            defined.add(name)
    return syms


def call_graph(srcdir, objdir):
    """{file: {callee file: [symbols]}} for the objects of srcdir's .c files in objdir (an object
    left behind by a source file that no longer exists is ignored)."""
    stems = sorted(f[:-2] for f in os.listdir(srcdir) if f.endswith(".c"))
    objs = [os.path.join(objdir, s + ".o") for s in stems]
    missing = [o for o in objs if not os.path.isfile(o)]
    if not objs or missing:
        die(f"layers: {srcdir}: missing objects (build first): {' '.join(missing) or objdir}")
    syms = nm_symbols(objs)
    owner = collections.defaultdict(list)
    for f, (defined, _) in syms.items():
        for s in defined:
            owner[s].append(f)
    graph = {f: collections.defaultdict(list) for f in syms}
    for f, (_, undefined) in syms.items():
        for s in sorted(undefined):
            for g in owner.get(s, ()):
                if g != f:
                    graph[f][g].append(s)
    return graph


def include_graph(srcdir):
    """{file: {included file: []}} for the .c/.h files of srcdir, same-folder includes only."""
    files = sorted(f for f in os.listdir(srcdir) if f.endswith((".c", ".h")))
    graph = {f: collections.defaultdict(list) for f in files}
    for f in files:
        with open(os.path.join(srcdir, f), encoding="utf-8", errors="replace") as fh:
            for inc in INCLUDE_RE.findall(fh.read()):
                if inc in graph and inc != f:
                    graph[f][inc] = []
    return graph


def components(graph):
    """Strongly connected components (Tarjan's algorithm, iterative), each a sorted list."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def shortest_cycle(graph, start, members):
    """A shortest cycle start -> ... -> start inside members (breadth-first search)."""
    prev, queue = {start: None}, collections.deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(graph[v]):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return None


def layers(graph):
    """Layer of each file of an acyclic graph: 0 for no callee, else 1 + the highest callee's."""
    level = {}

    def depth(v):
        if v not in level:
            level[v] = 1 + max((depth(w) for w in graph[v]), default=-1)
        return level[v]

    for v in graph:
        depth(v)
    return level


def report(folder, what, graph, verbose):
    """Print the cycles of graph (what: "calls" or "includes"); True when it has none."""
    cycles = [c for c in components(graph) if len(c) > 1]
    for comp in cycles:
        members = set(comp)
        print(f"{folder}: {what} cycle among {len(comp)} files: {' '.join(comp)}")
        seen = set()
        for f in comp:
            cyc = shortest_cycle(graph, f, members)
            key = frozenset(zip(cyc, cyc[1:]))
            if key not in seen:
                seen.add(key)
                print(f"  cycle: {' -> '.join(cyc)}")
        for f in comp:
            for g in sorted(graph[f]):
                if g in members:
                    syms = graph[f][g]
                    more = f" (+{len(syms) - MAX_SYMBOLS})" if len(syms) > MAX_SYMBOLS else ""
                    shown = f": {', '.join(syms[:MAX_SYMBOLS])}{more}" if syms else ""
                    print(f"  edge {f} -> {g}{shown}")
    if not cycles and verbose:
        level = layers(graph)
        by_level = collections.defaultdict(list)
        for f, n in level.items():
            by_level[n].append(f)
        print(f"{folder}: {what}: acyclic, {len(by_level)} layers")
        for n in sorted(by_level):
            print(f"  {n}: {' '.join(sorted(by_level[n]))}")
    return not cycles


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--obj", default="build/obj", help="object root (default build/obj)")
    ap.add_argument("--src", default=".", help="source root (default .)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print the layers of acyclic folders")
    ap.add_argument("folders", nargs="+")
    args = ap.parse_args()
    ok = True
    for folder in args.folders:
        objdir, srcdir = os.path.join(args.obj, folder), os.path.join(args.src, folder)
        if not os.path.isdir(objdir) or not os.path.isdir(srcdir):
            die(f"layers: {folder}: no {objdir} or {srcdir}")
        ok &= report(folder, "calls", call_graph(srcdir, objdir), args.verbose)
        ok &= report(folder, "includes", include_graph(srcdir), args.verbose)
    if ok:
        print(f"layers: no cycles in {' '.join(args.folders)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
