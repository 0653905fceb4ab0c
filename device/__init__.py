"""TableMate's hardware ports: keys, display, buzzer and camera, each with a real adapter
and a simulated one. Nothing here knows a game rule."""
