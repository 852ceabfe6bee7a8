"""Ratings: a pure Glicko-2 model and the club's table folded from finished games."""
