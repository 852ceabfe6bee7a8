"""Medieval Realm: two Dukes and six Men a side race to move off the far side of the board.

It is played with Classic Realm's engine (``pbem.rules.classic``); the Variant here
says what differs: Men step only forward or sideways, no piece enters a Realm whose
Center holds an enemy Duke, a Center left is refilled by the opponent's Border piece
(replacement), pieces move off the far row, and the game ends when a side has moved
all eight off, or is drawn after six turns in a row of Dukes only.
"""
