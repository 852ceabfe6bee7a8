"""Oriental Realm: a game of surrounding, played with Mandarins and an Emperor."""
