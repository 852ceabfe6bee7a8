"""Modern Realm: a game of infiltration, played with Agents, a Counter-Agent and HQs."""
