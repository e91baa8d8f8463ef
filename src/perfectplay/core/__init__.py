"""The basics every layer above may use and which use nothing above them: array types
(``arrays``) and chunks of work on every core (``parallel``)."""
