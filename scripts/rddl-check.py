#!/usr/bin/env python3
"""Independent check of an RDDL translation: pyRDDLGym (its own parser and simulator) plays random
episodes, each step an action its preconditions allow; SWI-Prolog (the oracle's GDL reading)
replays the same moves in the original game and compares, state by state: the decoded state,
the legal moves (the actions pyRDDLGym allows), terminal (only gdl_terminal_action allowed), and
at terminal the goal value against the reward paid. Shares no code with gdl-ground.

usage: PYRDDLGYM=DIR python3 scripts/rddl-check.py GAME.kif DOMAIN.rddl INSTANCE.rddl EPISODES
DIR: a checkout of github.com/pyrddlgym-project/pyRDDLGym (its parser and simulator need ply and
numpy; gymnasium is not needed: the package's __init__, which imports it, is skipped). The GDL
side is ../shared/oracles (gdl.py, equiv.py) on SWI-Prolog. Prints 'rddl agrees with the
original: N states' (exit 0) or the first DIFFERENCE (exit 1). docs/rddl.md, "Checking"."""
import sys, random, subprocess, tempfile, os, types
HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.environ.get('PYRDDLGYM', '/tmp/pyrddl')
pkg = types.ModuleType('pyRDDLGym'); pkg.__path__ = [os.path.join(CHECKOUT, 'pyRDDLGym')]
sys.modules['pyRDDLGym'] = pkg  # its __init__ imports gymnasium, which the parser does not need
sys.path.append('/usr/lib/python3/dist-packages')  # Debian's python3-ply
sys.path.insert(0, os.path.join(HERE, '..', '..', 'shared', 'oracles'))
from pyRDDLGym.core.parser.reader import RDDLReader
from pyRDDLGym.core.parser.parser import RDDLParser
from pyRDDLGym.core.compiler.model import RDDLLiftedModel
from pyRDDLGym.core.simulator import RDDLSimulator
from gdl import parse
from equiv import program, term

UN = {'o': '(', 'c': ')', 'u': '_', 'd': '-'}
def decode(name):  # docs/rddl.md "Names"
    kind, s = name[0], name[2:]
    out, i = '', 0
    while i < len(s):
        ch = s[i]
        if ch == '-': out += ' '
        elif ch == '_':
            if s[i+1] == 'x': out += chr(int(s[i+2:i+8], 16)); i += 6
            else: out += UN[s[i+1]]
            i += 1
        else: out += ch
        i += 1
    return kind, ('(' + out + ')' if ' ' in out else out)

DRIVER = r'''
call_p(R, Args) :- atomic_list_concat(['a:', R, '/'], Pre), length(Args, N),
    atom_concat(Pre, N, Name), G =.. [Name|Args], catch(G, error(existence_error(_,_),_), fail).
set_state(S) :- functor(H, 'a:true/1', 1), retractall(H), forall(member(F, S), (G =.. ['a:true/1', F], assertz(G))).
set_move(R, M) :- functor(H, 'a:does/2', 2), retractall(H), G =.. ['a:does/2', R, M], assertz(G).
bad(What, A, B) :- format("DIFFERENCE ~w~n  original: ~q~n  rddl:     ~q~n", [What, A, B]), halt(1).
same(What, A, B) :- (A == B -> true ; bad(What, A, B)).
check :-
    (setof(F, call_p(init, [F]), Init) -> true ; Init = []),
    call_p(role, [Role]),
    nb_setval(n, 0), nb_setval(prev, none),
    forall(step(Ep, T, S, Ms, Term, Paid, Played), one(Ep, T, S, Ms, Term, Paid, Played, Init, Role)),
    nb_getval(n, N), format("rddl agrees with the original: ~w states~n", [N]).
one(Ep, T, S0, Ms0, Term, Paid, Played, Init, Role) :-
    sort(S0, S), sort(Ms0, Ms),
    nb_getval(n, N0), N1 is N0 + 1, nb_setval(n, N1),
    ( T =:= 0 -> same(init(Ep), Init, S) ; nb_getval(prev, Exp), same(next(Ep, T), Exp, S) ),
    set_state(S),
    ( call_p(terminal, []) -> Tm = true ; Tm = false ),
    same(terminal(Ep, T, S), Tm, Term),
    ( Tm == true -> (setof(V, call_p(goal, [Role, V]), [G0]), atom_number(G0, G) -> true ; G = nogoal), same(goal(Ep, T, S), G, Paid)
    ; (setof(M, call_p(legal, [Role, M]), L) -> true ; L = []),
      same(legal(Ep, T, S), L, Ms),
      set_move(Role, Played),
      (setof(F, call_p(next, [F]), Nx) -> true ; Nx = []),
      nb_setval(prev, Nx) ).
'''

def pl(kif):
    return term(parse(kif)[0])

game, dom, inst, episodes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
parser = RDDLParser(None, False); parser.build()
model = RDDLLiftedModel(parser.parse(RDDLReader(dom, inst).rddltxt))
sim = RDDLSimulator(model); acts = list(model.action_fluents)
rnd = random.Random(7)
checks = []
for ep in range(episodes):
    sim.reset(); obs = sim.states; total = 0.0
    for t in range(model.horizon):
        state = sorted(decode(k)[1] for k, v in obs.items() if bool(v) and k.startswith('f-'))
        legal = [a for a in acts if sim.check_action_preconditions({b: b == a for b in acts}, silent=True)]
        moves = sorted(decode(a)[1] for a in legal if a.startswith('a-'))
        terminal = 'gdl_terminal_action' in legal
        a = rnd.choice(legal)
        obs, reward, done = sim.step({b: b == a for b in acts})
        total += reward
        checks.append((ep, t, state, moves, terminal, None if not terminal else total))
        if terminal: break
        # the move played, for the replay
        checks[-1] = checks[-1] + (decode(a)[1],)
sents = parse(open(game, encoding='utf-8', errors='replace').read())
with tempfile.TemporaryDirectory() as d:
    f = os.path.join(d, 'c.pl')
    with open(f, 'w') as out:
        out.write(':- style_check(-singleton).\n:- style_check(-discontiguous).\n')
        out.write(program('a', sents))
        out.write(DRIVER)
        for c in checks:
            ep, t, state, moves, terminal, paid = c[:6]
            played = pl(c[6]) if len(c) > 6 else 'none'
            out.write(f"step({ep},{t},[{','.join(pl(x) for x in state)}],[{','.join(pl(x) for x in moves)}],{str(terminal).lower()},{'none' if paid is None else int(round(paid))},{played}).\n")
    r = subprocess.run(['swipl', '-q', '-g', 'check, halt.', '-t', 'halt(2)', f], capture_output=True, text=True)
    sys.stdout.write(r.stdout); sys.stderr.write(r.stderr[-2000:])
    sys.exit(r.returncode)
