#!/usr/bin/env python3
"""An independent reading of docs/gddl.md, sharing no code with the project: translates
DIR/{domain,problem,partition}.gddl into a GDL game, so that an independent reasoner can play
it against the original, e.g. `python3 scripts/gddl2gdl.py DIR > out.kif` then
`python3 ../shared/oracles/equiv.py GAME.kif out.kif` (SWI-Prolog). (legal R M) <= the global
precondition of each multi-action; (next F) <= its does atoms and a pair's precondition;
goal and terminal from the rewards and the terminal condition; derived predicates become the
decoded axiom relations; _true becomes the fact gddl_true. Also checks the partition."""
import sys, re

def sexprs(text):
    text = re.sub(r";[^\n]*", "", text)
    toks = re.findall(r"\(|\)|[^\s()]+", text)
    stack, top = [], []
    for t in toks:
        if t == "(":
            stack.append([])
        elif t == ")":
            l = stack.pop()
            (stack[-1] if stack else top).append(l)
        else:
            (stack[-1] if stack else top).append(t)
    assert not stack
    return top

def unescape(tok):
    out, i = "", 0
    while i < len(tok):
        c = tok[i]
        if c != "_":
            out += c; i += 1; continue
        k = tok[i + 1]
        if k == "_": out += "_"; i += 2
        elif k == "d": out += "-"; i += 2
        elif k == "u": out += tok[i + 2].upper(); i += 3
        elif k == "x":
            j = tok.index("_", i + 2); out += chr(int(tok[i + 2:j], 16)); i = j + 1
        else: raise ValueError(tok)
    return out

def decode(name):
    toks = name.split("-")
    stack = [[unescape(toks[0])]]
    i = 1
    while i < len(toks):
        t = toks[i]
        if t == "_o":
            stack.append([unescape(toks[i + 1])]); i += 2; continue
        if t == "_c":
            parts = stack.pop(); stack[-1].append("(" + " ".join(parts) + ")")
        else:
            stack[-1].append(unescape(t))
        i += 1
    assert len(stack) == 1
    parts = stack[0]
    return parts[0] if len(parts) == 1 else "(" + " ".join(parts) + ")"

def main(d):
    dom = sexprs(open(d + "/domain.gddl").read())[0]
    prob = sexprs(open(d + "/problem.gddl").read())[0]
    part = sexprs(open(d + "/partition.gddl").read())[0]
    assert dom[0] == "define" and dom[1][0] == "domain"
    derived = {s[1][0] for s in dom[2:] if s[0] == ":derived"}

    def form(f):
        assert isinstance(f, list)
        if len(f) == 1:
            n = f[0]
            if n == "_true": return "gddl_true"
            if n in derived:
                assert n.startswith("_ax-"); return decode(n[4:])
            return "(true " + decode(n) + ")"
        op = f[0]
        assert op in ("not", "and", "or"), op
        return "(" + op + " " + " ".join(form(x) for x in f[1:]) + ")"

    out = ["gddl_true"]
    roles = []
    fluents = []
    for s in dom[2:]:
        k = s[0]
        if k == ":roles":
            roles = s[1:]; out += ["(role %s)" % decode(r) for r in roles]
        elif k == ":predicates":
            fluents = [p[0] for p in s[1:] if p[0] != "_true" and p[0] not in derived]
        elif k == ":derived":
            # (:derived (NAME) :stratum K :condition F)
            assert s[2] == ":stratum" and s[4] == ":condition"
            out.append("(<= %s %s)" % (decode(s[1][0][4:]), form(s[5])))
        elif k == ":multi-action":
            i, moves = 1, []
            while s[i] == ":player":
                assert s[i + 2] == ":action"; moves.append((s[i + 1], s[i + 3])); i += 4
            assert sorted(r for r, _ in moves) == sorted(roles)
            assert s[i] == ":global-precondition"
            pre = form(s[i + 1]); i += 2
            does = " ".join("(does %s %s)" % (decode(r), decode(m)) for r, m in moves)
            for r, m in moves:
                out.append("(<= (legal %s %s) %s)" % (decode(r), decode(m), pre))
            while i < len(s):
                assert s[i] == ":precondition" and s[i + 2] == ":effect"
                out.append("(<= (next %s) %s %s)" % (decode(s[i + 3][0]), does, form(s[i + 1])))
                i += 4
        elif k == ":reward":
            assert s[1] == ":player" and s[3] == ":value" and s[5] == ":condition"
            out.append("(<= (goal %s %s) %s)" % (decode(s[2]), decode(s[4]), form(s[6])))
        else:
            raise ValueError(k)
    for s in prob[2:]:
        if s[0] == ":init": out += ["(init %s)" % decode(f[0]) for f in s[1:]]
        elif s[0] == ":terminal": out.append("(<= terminal %s)" % form(s[1]))
    # Partition: every fluent exactly once.
    seen = []
    for s in part[2:]:
        if s[0] != ":group": continue
        assert s[1] in (":proven", ":observed", ":singleton")
        seen += [m[0] for m in s[2:] if isinstance(m, list)]
    assert sorted(seen) == sorted(fluents), "partition is not a partition of the fluents"
    print("\n".join(out))

main(sys.argv[1])
