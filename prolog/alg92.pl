% Algorithm 9.2 of Kissmann's thesis (section 9.1.2; slides 16-18), as the thesis writes it,
% for Tau-Prolog: the `--method prolog-plain` of `reach`, `ground`, `compare` and `bench`.
%
% This file is the source of truth; src/reach/alg92-text.ts embeds it (scripts/embed-prolog.mjs,
% run by `npm run build`; test/alg92-embed.test.ts fails when the two differ), so that the
% library core reads no file. src/reach/plain.ts consults it, then the relaxed game (no
% negative literals, no goal and terminal rules, the rules the optimized method keeps), with
% every GDL relation r renamed 'r:r' so that none clashes with a builtin:
%   - rules of non-recursive relations as ordinary clauses, evaluated top-down, as in the thesis;
%   - rules of relations in a recursive component (of the rules' dependency graph, without the
%     next->true and legal->does copies of the loop) as facts alg92_rule(Kind, Head, Body), Kind
%     `state` when the relation depends on true or does, `static` otherwise, and one fact
%     alg92_delta_rule(Head, Literal, Rest) per body literal of a recursive relation (below);
%   - alg92_axiom_goal(G) for every relation that is not a GDL keyword (line 22);
%   - alg92_limits(MaxDepth, MaxAtoms): the optimized method's term depth and atom budgets.
% Then it runs alg92(Stats) and reads alg92_reach_axiom/1, 'r:true'/1 and 'r:does'/2.
%
% Recursive relations. The thesis's Prolog (and the SWI baseline, prolog/alg92-swi.pl, with
% tabling) answers them top-down; Tau-Prolog has no tabling, and plain top-down resolution of a
% left-recursive rule (connected(X, Z) :- connected(X, Y), edge(Y, Z)) loops forever. So the
% relations of recursive components are not clauses but facts, filled by an iterated bottom-up
% closure written here (alg92_close), semi-naively: its first round queries the body of every
% such rule against the facts asserted so far (findall) and asserts the new heads; each later
% round queries only the variants alg92_delta_rule(Head, Literal, Rest), with Literal read from
% the facts the round before asserted (alg92_delta/1) and Rest from all facts, until a round
% finds none (a derivation that uses no new fact was made before). The closure runs wherever
% the algorithm queries (before lines 3, 11, 16 and 22), since recursive relations may read
% true and does; but only when true or does has grown since it last ran, and then only the
% `state` rules in its first round (`static` relations were closed by the first call and
% cannot change). All relations are monotone in the facts (no negation), so this is the least
% model the tabled top-down queries would give.
%
% Where it cannot terminate: when the relaxed game is infinite (a counter (s (s ...)) in next,
% or in a recursive axiom) the loop or the closure would run forever. Every new fact is held
% to the budgets: a term deeper than MaxDepth, or more than MaxAtoms facts asserted in all,
% stops the run with alg92_limit(Kind, Relation) (alg92_stop), which src/reach/plain.ts turns
% into the same kind of limit error (exit 3) as the optimized method's; the run's deadline stops everything else (a
% top-down query whose answers explode), between any two resolution steps.
:- set_prolog_flag(unknown, fail).
:- dynamic('r:true'/1).
:- dynamic('r:does'/2).
:- dynamic(alg92_reach_axiom/1).
:- dynamic(alg92_count/2).
:- dynamic(alg92_rule/3).
:- dynamic(alg92_delta_rule/3).
:- dynamic(alg92_delta/1).
:- dynamic(alg92_new/1).
:- dynamic(alg92_axiom_goal/1).
:- dynamic(alg92_stopped/1).

% The whole algorithm; Stats = stats(Iterations, Moves, Fluents, Axioms, ClosureRounds).
alg92(stats(I, M, F, A, R)) :-
    alg92_set(rounds, 0), alg92_set(atoms, 0), alg92_set(state, 0), alg92_set(closed, -1),
    alg92_set(moves, 0), alg92_set(fluents, 0), alg92_set(axioms, 0),
    % Line 1 (load the description) is done by the caller; lines 2-8:
    alg92_init,
    alg92_loop(0, I),
    % Lines 21-25:
    alg92_axioms,
    alg92_get(moves, M), alg92_get(fluents, F), alg92_get(axioms, A), alg92_get(rounds, R).

% Lines 2-7: reachFluents <- the answers of init(F), each asserted as true(F).
alg92_init :-
    alg92_close,
    findall(F, 'r:init'(F), Fs0), sort(Fs0, Fs),
    forall(alg92_member(F1, Fs), alg92_new_true(F1)).

% Lines 9-20: while the number of fluents or moves changed (line 9) ...
alg92_loop(I0, I) :-
    I1 is I0 + 1,
    alg92_get(moves, M0), alg92_get(fluents, F0),
    % Lines 11-15: query legal(P, M); assert does(p, m) for every new move.
    alg92_close,
    findall(P-Mv, 'r:legal'(P, Mv), Ms0), sort(Ms0, Ms),
    forall(alg92_member(P1-Mv1, Ms), alg92_new_does(P1, Mv1)),
    % Lines 16-20: query next(F); assert true(f) for every new fluent.
    alg92_close,
    findall(F, 'r:next'(F), Fs0), sort(Fs0, Fs),
    forall(alg92_member(F1, Fs), alg92_new_true(F1)),
    alg92_get(moves, M), alg92_get(fluents, F2),
    (   M =:= M0, F2 =:= F0
    ->  I = I1
    ;   alg92_loop(I1, I)
    ).

% Lists of answers are walked by forall/2 rather than by recursion. Tau-Prolog compares each
% goal it selects with the goals of the states before it (Term.search, before every step and
% in every cut), so a step costs the size of the goals still pending: in a recursion over a
% list that includes the rest of the list at every step of every element. Under forall the
% rest is held once per element (nim3: 10.0 s -> 5.7 s of processor time). Two other ways
% were measured and are slower still: answers stored as facts and walked by forall over
% them (25.6 s: each cut then visits every pending alternative, one per answer) or by index
% (69.8 s: the recursion's chain of states is walked by every cut).

% Lines 12-14: a move not asserted yet is asserted (and counted).
alg92_new_does(P, Mv) :-
    (   'r:does'(P, Mv)
    ->  true
    ;   alg92_check('r:does'(P, Mv)), assertz('r:does'(P, Mv)), alg92_add(moves, 1), alg92_add(state, 1)
    ).

% Lines 17-19 (and 4-6): a fluent not asserted yet is asserted (and counted).
alg92_new_true(F) :-
    (   'r:true'(F)
    ->  true
    ;   alg92_check('r:true'(F)), assertz('r:true'(F)), alg92_add(fluents, 1), alg92_add(state, 1)
    ).

% Lines 22-25: for every axiom relation ax/n, the answers of ax(V1, ..., Vn).
alg92_axioms :-
    alg92_close,
    forall(alg92_axiom_goal(G), alg92_axiom(G)).

alg92_axiom(G) :-
    findall(G, G, As0), sort(As0, As),
    forall(alg92_member(A, As), alg92_store_axiom(A)).

alg92_store_axiom(A) :-
    alg92_check(A), assertz(alg92_reach_axiom(A)), alg92_add(axioms, 1).

% The bottom-up closure of the recursive relations (not in the thesis: see the header).
% Nothing to do when true and does are as they were at the last closure; otherwise a first
% round fires the rules (all of them the first time, then the `state` ones) against the facts
% asserted so far, and semi-naive rounds follow until one asserts nothing. alg92_new/1 holds
% the facts the current round asserted.
alg92_close :-
    alg92_get(state, S), alg92_get(closed, C),
    (   S =:= C
    ->  true
    ;   alg92_set(closed, S),
        (   C < 0 -> Kinds = [static, state] ; Kinds = [state] ),
        retractall(alg92_new(_)),
        (   alg92_rule(_, _, _) -> alg92_add(rounds, 1) ; true ),
        forall((alg92_member(K, Kinds), alg92_rule(K, H, B)), alg92_fire(H, B)),
        alg92_close_delta
    ).

% Asserts the answers H of Body that are new.
alg92_fire(H, Body) :-
    findall(H, Body, Hs0), sort(Hs0, Hs),
    forall(alg92_member(F, Hs), alg92_new_fact(F)).

alg92_new_fact(H) :-
    (   call(H)
    ->  true
    ;   alg92_check(H), assertz(H), assertz(alg92_new(H))
    ).

% One semi-naive round per call while the last round asserted something: its facts become
% alg92_delta/1, and every variant alg92_delta_rule(Head, Literal, Rest) reads Literal from them.
alg92_close_delta :-
    (   alg92_new(_)
    ->  alg92_add(rounds, 1),
        retractall(alg92_delta(_)),
        forall(alg92_new(F), assertz(alg92_delta(F))),
        retractall(alg92_new(_)),
        forall(alg92_delta_rule(H, D, R), alg92_fire(H, (alg92_delta(D), R))),
        alg92_close_delta
    ;   true
    ).

% The budgets, for every new fact: ground, no deeper than MaxDepth, at most MaxAtoms in all.
alg92_check(Fact) :-
    functor(Fact, Rel, _),
    (   ground(Fact) -> true ; alg92_stop(alg92_nonground(Fact)) ),
    alg92_limits(MaxDepth, MaxAtoms),
    (   alg92_deeper(Fact, MaxDepth) -> alg92_stop(alg92_limit(depth, Rel)) ; true ),
    alg92_add(atoms, 1),
    alg92_get(atoms, N),
    (   N > MaxAtoms -> alg92_stop(alg92_limit(atoms, Rel)) ; true ).

% Records why the run stops, then throws: Tau-Prolog runs catch/3 asynchronously, which the
% engine's synchronous driver refuses, so the caller reads alg92_stopped/1 instead of catching.
alg92_stop(Error) :- assertz(alg92_stopped(Error)), throw(Error).

% alg92_deeper(T, D): some argument of the fact T is a term nested deeper than D levels (a
% constant is 1 level). Walks at most D levels down.
alg92_deeper(Fact, D) :-
    Fact =.. [_|Args],
    alg92_member(A, Args),
    alg92_term_deeper(A, D), !.

alg92_term_deeper(T, D) :-
    compound(T),
    (   D =< 1
    ->  true
    ;   D1 is D - 1, T =.. [_|Args], alg92_member(A, Args), alg92_term_deeper(A, D1), !
    ).

alg92_member(X, [X|_]).
alg92_member(X, [_|T]) :- alg92_member(X, T).

% Counters (Tau-Prolog has no global variables): one fact alg92_count(Name, Value) each.
alg92_set(K, V) :- retractall(alg92_count(K, _)), assertz(alg92_count(K, V)).
alg92_get(K, V) :- alg92_count(K, V), !.
alg92_add(K, D) :- alg92_get(K, V0), V is V0 + D, alg92_set(K, V).
