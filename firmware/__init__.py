"""TableMate: the program that runs on the box (and, with simulated hardware, on a PC)."""
__version__ = "0.1.0"
