"""A mail coming in, up to the point where its commands are known and it may act:
``sources`` and ``imap_source`` hand out raw messages (a Maildir, an IMAP folder);
``inbox`` reads one once (``sender``, ``extract`` with ``html_text``, ``autoreply``,
``dedupe``); ``orders`` finds its command lines; ``keys`` decides whether it may act for
its sender; ``bounces`` reads a delivery report and ``returns`` the VERP and
List-Unsubscribe addresses mail comes back to; ``refusal`` is the one exception a command
raises to refuse the whole mail. Nothing here writes to the store or sends mail."""
