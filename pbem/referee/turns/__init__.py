"""A mailed turn, as the referee judges it: ``play`` checks it against the latest snapshot
with the very code ``pbem validate`` runs, ``turn_line`` finds the turn in a line of
prose, ``wording`` tells a refusal in the player's words rather than the validator's, and
``conditions`` reads and matches conditional turns (``if THEIR-TURN then MY-TURN``). Pure:
no store, no mail; the layers above call them."""
