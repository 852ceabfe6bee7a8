"""Classic Realm: eight "frogs" a side jump from Center to Center and dunk the enemy's.

The engine here is also Medieval Realm's: what differs (who may step where, which
Realms cannot be entered, whose piece refills a Center, moving off, how a game
ends) are the hooks of a :class:`~pbem.rules.classic.variant.Variant`.
"""
