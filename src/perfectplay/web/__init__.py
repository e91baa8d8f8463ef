"""The web explorer: a local page where every move of a position is coloured by its value.

A front end, like ``cli``: the library never imports it. ``views`` turns a game, its answers
(a solve in memory or a tablebase) and the moves played into the JSON the page reads;
``drawing`` draws positions as SVG; ``app`` serves the page and the JSON API with Starlette
(the ``explorer`` extra: ``pip install 'perfectplay[explorer]'``).
"""
