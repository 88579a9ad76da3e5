% Algorithm 9.2 of Kissmann's thesis (section 9.1.2), plainly, for SWI-Prolog: the baseline
% that `npm run bench -- --swi` times against. The game's relaxed rules are consulted
% after this file, with every GDL relation r renamed 'r:r' (so none clashes with a builtin)
% and recursive relations tabled, because a plain top-down query would loop on them.
% Output: one line "fluents F moves M axioms A iterations I" on stdout.
:- dynamic('r:true'/1).
:- dynamic('r:does'/2).

% Lines 2-7: the initial fluents.
alg92_init :-
    findall(F, 'r:init'(F), Fs0), sort(Fs0, Fs),
    forall(member(F, Fs), assertz('r:true'(F))).

% Lines 9-20: query legal and next, assert what is new, until nothing is new.
alg92_loop(I0, I) :-
    I1 is I0 + 1,
    abolish_all_tables,
    findall(R-M, 'r:legal'(R, M), Ms0), sort(Ms0, Ms),
    findall(R-M, (member(R-M, Ms), \+ 'r:does'(R, M)), NewMs),
    forall(member(R-M, NewMs), assertz('r:does'(R, M))),
    abolish_all_tables,
    findall(F, 'r:next'(F), Fs0), sort(Fs0, Fs),
    findall(F, (member(F, Fs), \+ 'r:true'(F)), NewFs),
    forall(member(F, NewFs), assertz('r:true'(F))),
    (   NewMs == [], NewFs == []
    ->  I = I1
    ;   alg92_loop(I1, I)
    ).

% Lines 21-25: every instance of every axiom relation (given as Name/Arity terms).
alg92_axioms(Relations, Count) :-
    abolish_all_tables,
    findall(N, (member(Name/Arity, Relations),
                functor(G, Name, Arity), findall(G, G, Gs0), sort(Gs0, Gs), length(Gs, N)), Ns),
    sum_list(Ns, Count).

alg92(Relations) :-
    alg92_init,
    alg92_loop(0, I),
    alg92_axioms(Relations, A),
    aggregate_all(count, 'r:true'(_), F),
    aggregate_all(count, 'r:does'(_, _), M),
    format("fluents ~d moves ~d axioms ~d iterations ~d~n", [F, M, A, I]).
