"""Everything the referee says, and how it leaves: ``mailer`` decides who gets which mail
(reports, notices, replies, refusals) and queues it in the same transaction as the change;
``letters``, ``report_mail``, ``compose``, ``labels`` and ``deadline_ics`` write it;
``limits`` and ``ratelimit`` bound it; ``posting`` puts one finished mail in the outbox
(its return path and its DKIM signature, ``signing``); ``delivery`` sends the queued rows
after the commit and ``retry`` judges a failed send; ``operator_notice`` tells the operator
once; ``webhooks`` and ``hook_outbox`` call the queued webhooks after the mail. A report is
written here, never by a command."""
