"""The referee's data folder and its settings: ``home`` (``$PBEM_HOME`` and ``config.yaml``
read), ``checks`` (every key of the file, its type and range, checked once, as it is read),
``imap`` (the IMAP settings ``pbem poll`` builds from the checked section) and ``options``
(clocks, vacations, challenges, observers, digests and ratings as the referee uses them).
Read once per command; a wrong setting stops the command with the file, line and key
rather than doing harm quietly."""
