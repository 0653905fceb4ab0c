"""Errors a hardware port raises: each names the part and says what to do, in one sentence."""


class HardwareError(Exception):
    """Base of every hardware problem TableMate can explain to a user."""


class DisplayError(HardwareError, OSError):
    pass


class CameraError(HardwareError, OSError):
    pass


class KeysError(HardwareError, OSError):
    pass


class BuzzerError(HardwareError, OSError):
    pass
