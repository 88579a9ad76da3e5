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
%     next->true and legal->does copies of the loop) as facts alg92_rule(Head, Body), see below;
%   - alg92_axiom_goal(G) for every relation that is not a GDL keyword (line 22);
%   - alg92_limits(MaxDepth, MaxAtoms): the optimized method's term depth and atom budgets.
% Then it runs alg92(Stats) and reads alg92_reach_axiom/1, 'r:true'/1 and 'r:does'/2.
%
% Recursive relations. The thesis's Prolog (and the SWI baseline, prolog/alg92-swi.pl, with
% tabling) answers them top-down; Tau-Prolog has no tabling, and plain top-down resolution of a
% left-recursive rule (connected(X, Z) :- connected(X, Y), edge(Y, Z)) loops forever. So the
% relations of recursive components are not clauses but facts, filled by an iterated bottom-up
% closure written here (alg92_close): each round queries the body of every such rule against
% the facts asserted so far (findall), asserts the new heads, until a round finds none. The
% closure runs wherever the algorithm queries (before lines 3, 11, 16 and 22), since recursive
% relations may read true and does. All relations are monotone in the facts (no negation), so
% this is the least model the tabled top-down queries would give.
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
:- dynamic(alg92_rule/2).
:- dynamic(alg92_axiom_goal/1).
:- dynamic(alg92_stopped/1).

% The whole algorithm; Stats = stats(Iterations, Moves, Fluents, Axioms, ClosureRounds).
alg92(stats(I, M, F, A, R)) :-
    alg92_set(rounds, 0), alg92_set(atoms, 0),
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
    alg92_new_true(Fs, _).

% Lines 9-20: while new fluents or moves were found (line 9) ...
alg92_loop(I0, I) :-
    I1 is I0 + 1,
    % Lines 11-15: query legal(P, M); assert does(p, m) for every new move.
    alg92_close,
    findall(P-Mv, 'r:legal'(P, Mv), Ms0), sort(Ms0, Ms),
    alg92_new_does(Ms, NewMs),
    % Lines 16-20: query next(F); assert true(f) for every new fluent.
    alg92_close,
    findall(F, 'r:next'(F), Fs0), sort(Fs0, Fs),
    alg92_new_true(Fs, NewFs),
    (   NewMs == [], NewFs == []
    ->  I = I1
    ;   alg92_loop(I1, I)
    ).

% Lines 12-14: the moves not asserted yet are asserted (and counted).
alg92_new_does([], []).
alg92_new_does([P-Mv|Ms], New) :-
    (   'r:does'(P, Mv)
    ->  New = New1
    ;   alg92_check('r:does'(P, Mv)), assertz('r:does'(P, Mv)), alg92_add(moves, 1), New = [P-Mv|New1]
    ),
    alg92_new_does(Ms, New1).

% Lines 17-19 (and 4-6): the fluents not asserted yet are asserted (and counted).
alg92_new_true([], []).
alg92_new_true([F|Fs], New) :-
    (   'r:true'(F)
    ->  New = New1
    ;   alg92_check('r:true'(F)), assertz('r:true'(F)), alg92_add(fluents, 1), New = [F|New1]
    ),
    alg92_new_true(Fs, New1).

% Lines 22-25: for every axiom relation ax/n, the answers of ax(V1, ..., Vn).
alg92_axioms :-
    alg92_close,
    findall(G, alg92_axiom_goal(G), Goals),
    alg92_axioms(Goals).

alg92_axioms([]).
alg92_axioms([G|Gs]) :-
    findall(G, G, As0), sort(As0, As),
    alg92_store_axioms(As),
    alg92_axioms(Gs).

alg92_store_axioms([]).
alg92_store_axioms([A|As]) :-
    alg92_check(A), assertz(alg92_reach_axiom(A)), alg92_add(axioms, 1),
    alg92_store_axioms(As).

% The bottom-up closure of the recursive relations (not in the thesis: see the header).
% One round fires every rule alg92_rule(Head, Body) against the facts asserted so far; rounds
% repeat until one asserts nothing.
alg92_close :-
    findall(H-B, alg92_rule(H, B), Rules),
    alg92_close(Rules).

alg92_close([]) :- !.
alg92_close(Rules) :-
    alg92_add(rounds, 1),
    alg92_round(Rules, 0, N),
    (   N =:= 0
    ->  true
    ;   alg92_close(Rules)
    ).

alg92_round([], N, N).
alg92_round([H-B|Rules], N0, N) :-
    findall(H, B, Hs0), sort(Hs0, Hs),
    alg92_new_facts(Hs, N0, N1),
    alg92_round(Rules, N1, N).

alg92_new_facts([], N, N).
alg92_new_facts([H|Hs], N0, N) :-
    (   call(H)
    ->  N1 = N0
    ;   alg92_check(H), assertz(H), N1 is N0 + 1
    ),
    alg92_new_facts(Hs, N1, N).

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
