"""Tournaments as pure values: who meets whom (``berger`` for round robins, ``swiss`` for
the FIDE Dutch system through py4swiss) and what the results add up to (``standings``:
scores, Sonneborn-Berger, direct encounter, the crosstable).

Nothing here knows mail, the store or a game's rules: the referee hands in the entries
and the finished games' results and stores what comes out, so the same tables are
computed for ``pbem tournament show``, the result mail, the live site and the archive.
"""
