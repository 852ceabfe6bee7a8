"""Everything the referee says, and how it leaves: ``mailer`` decides who gets which mail
(reports, notices, replies, refusals) and queues it in the same transaction as the change;
``letters``, ``report_mail``, ``compose`` and ``labels`` write it; ``limits`` and
``ratelimit`` bound it; ``delivery`` sends the queued rows after the commit, and ``retry``
judges a failed send. A report is written here, never by a command."""
