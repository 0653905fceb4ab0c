"""One controller per screen family: key presses -> game events -> what the screen shows."""
