"""The solvers, one module each with its precondition, its compiled loop and its contract:
``retrograde`` (WIN/LOSS/TIE, cycles allowed), ``negamax`` (scores, acyclic), ``grundy``
(impartial normal play) over an explored StateGraph, ``alphabeta`` (the root alone, by
search) and ``search`` (exact scores at one position, compiled). ``registry`` holds them
all in one table: name, what each answers, precondition, function."""
