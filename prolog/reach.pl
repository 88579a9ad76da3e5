% Engine-side Prolog of the superset computation (Algorithm 9.2 of Kissmann's thesis,
% section 9.1.2), loaded into Tau-Prolog before the clauses generated for a game.
%
% The generated program reads only tables of ground facts ('F|rel/n' holds every fact found
% so far, 'D|rel/n' the facts new in the last round) through clauses '$vN'(Head) :- Body, one
% per semi-naive variant of a rule of the relaxed game. A table that has no fact yet, or a
% relation that no rule defines, must simply fail instead of raising an existence error: the
% relaxed game leaves out rules (negative literals, goal and terminal) and tables fill up
% only as the fixpoint proceeds.
:- set_prolog_flag(unknown, fail).
