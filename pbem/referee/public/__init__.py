"""The games as the world may see them: ``publish`` (display names, dates, results, never an
address: ``pbem export``, the links in reports, and ``update_site``, the live site after
every run), ``event_pages`` (an event's entrants by display name and its page) and
``club_ratings`` (the club's Glicko-2 table from the store). Read-only over the store; kept
apart from the mail so that what is public is decided in one place."""
