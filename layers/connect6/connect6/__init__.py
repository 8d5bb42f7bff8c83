"""Connect6 for the play-by-mail platform: rules, records, computer opponent, game service."""

__version__ = "0.1.0"
