"""One package per game; each exposes ``GAME`` (see ``simcards.core.game.Game``)."""
