"""Players that are programs: random-game policies, one module per game.

They live apart from the rules core (``pbem.rules``), which only says what is legal;
a policy decides what to play and may import its own game's rules. ``registry`` finds
a game's policy by the game's name.
"""
