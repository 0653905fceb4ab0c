"""The working copy of the photo the faces are looked for in, and the maps made from it
once (grey, blurred, the faces' axes, the closings and darkness maps at each side)."""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.glyph_seeds import closed, closing_size, darkness
from vision.outlines import AxisField

GREY_WEIGHTS = np.float32([0.114, 0.587, 0.299])   # blue, green, red: their shares of grey


@dataclass
class View:
    """The working copy of the photo, and what is worked out from it once."""
    small: np.ndarray
    light_gains: np.ndarray   # each channel's gain that takes the light's own colour out, to judge tint by
    gray: np.ndarray
    blurred: np.ndarray
    axes: AxisField
    _closed: dict[int, np.ndarray] = field(default_factory=dict)     # by the closing's disc
    _darkness: dict[int, np.ndarray] = field(default_factory=dict)

    @classmethod
    def of(cls, small: np.ndarray) -> "View":
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        blurred = cv2.GaussianBlur(gray, (0, 0), 1.0).astype(np.float32)
        return cls(small, _light_gains(small), gray, blurred, AxisField(blurred))

    def closed(self, side: float) -> np.ndarray:
        """`closed(gray, side)`, made once for each side (the faces at a side are looked
        for, then completed), or for sides near enough to close with the same disc."""
        size = closing_size(side)
        if size not in self._closed:
            self._closed[size] = closed(self.gray, side)
        return self._closed[size]

    def red_darkness(self, side: float) -> np.ndarray:
        """`darkness` of the darker of grey and green, the green balanced for the light's
        colour (so that under warm light a white face or table is as light in it as in
        grey): red ink, light in grey, is as dark in it as black."""
        gains = self.light_gains
        green = self.small[..., 1] * (gains[1] * float(GREY_WEIGHTS @ (1 / gains)))
        return darkness(np.minimum(self.gray, np.minimum(green, 255).astype(np.uint8)), side)

    def darkness(self, side: float) -> np.ndarray:
        """`darkness(gray, side)`, made once for each side (the seeds, the blurred
        letters and the faint ones are all found in it)."""
        size = closing_size(side)
        if size not in self._darkness:
            self._darkness[size] = darkness(self.gray, side, self.closed(side))
        return self._darkness[size]


def _light_gains(small: np.ndarray) -> np.ndarray:
    """What each channel is multiplied by to see the photo as if under white light (over
    its brightest pixels').  Warm or tinted light makes every white cube look cream or
    orange; only a tint beyond the light's own says a candidate is the table (wood,
    felt, cloth)."""
    light = np.percentile(small[::4, ::4].reshape(-1, 3), 99.5, axis=0).astype(np.float32) + 1
    return light.max() / light
