"""The solvers, one module each with its precondition, its compiled loop and its contract:
``retrograde`` (WIN/LOSS/TIE, cycles allowed), ``negamax`` (scores, acyclic), ``grundy``
(impartial normal play) over an explored StateGraph, and ``alphabeta`` (the root alone,
by search)."""
