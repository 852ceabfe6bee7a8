"""The next deadline as an iCalendar event (``icalendar``), attached to the turn report of
the player who must move: his calendar reminds him, as a reminder mail would, even when
mail is slow. The event's UID names the game and the turn, so a calendar that imports
the next report's event keeps one entry per turn; the summary carries the game's name
and the turn, never an address. icalendar is imported only when an event is made."""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.rules.game import turn_name

#: the calendar's alarm: this long before the deadline
ALARM_BEFORE = timedelta(hours=12)


def deadline_event(game_id: int, title: str, label: str, deadline: datetime, domain: str,
                   stamp: datetime, url: str | None = None) -> bytes:
    """One VEVENT at ``deadline`` (a moment, in UTC) with a display alarm before it."""
    from icalendar import Alarm, Calendar, Event

    cal = Calendar()
    cal.add("prodid", "-//pbem//Realm referee//EN")
    cal.add("version", "2.0")
    cal.add("method", "PUBLISH")
    event = Event()
    event.add("uid", f"pbem-g{game_id}-{label}@{domain}")
    event.add("dtstamp", stamp)
    event.add("dtstart", deadline)
    event.add("dtend", deadline)
    summary = f"{title}: your move ({turn_name(label)}) is due"
    event.add("summary", summary)
    event.add("description", f"The deadline of your move ({turn_name(label)}) in game "
                             f"{game_id} ({title}). "
                             "Reply to the referee's last report with your turn.")
    if url:
        event.add("url", url)
    event.add("transp", "TRANSPARENT")
    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", summary)
    alarm.add("trigger", -ALARM_BEFORE)
    event.add_component(alarm)
    cal.add_component(event)
    return bytes(cal.to_ical())
