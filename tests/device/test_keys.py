from gpiozero.pins.mock import MockFactory

from device.keys import Edge, KeyGestures, Keypad, KeyPress


def test_a_press_on_a_mock_pin_reaches_the_queue():
    factory = MockFactory()
    edges = []
    pad = Keypad({"K1": 5, "K2": 6, "K3": 13, "K4": 19}, edges.append, lambda: 10.0, pin_factory=factory)
    factory.pin(13).drive_low()
    factory.pin(13).drive_high()
    assert edges == [Edge("K3", True, 10.0), Edge("K3", False, 10.0)]
    pad.close()
    factory.close()


def test_short_press_is_reported_on_release():
    g = KeyGestures(debounce_s=0.03, long_s=0.8)
    assert g.edge(Edge("K1", True, 0.0)) == []
    assert g.edge(Edge("K1", False, 0.2)) == [KeyPress("K1")]


def test_contact_bounce_inside_the_window_counts_once():
    g = KeyGestures(debounce_s=0.03, long_s=0.8)
    out = []
    for t, down in [(0.0, True), (0.002, False), (0.004, True), (0.006, False), (0.008, True)]:
        out += g.edge(Edge("K2", down, t))
    out += g.tick(0.05)
    for t, down in [(0.30, False), (0.302, True), (0.304, False)]:
        out += g.edge(Edge("K2", down, t))
    out += g.tick(0.40)
    assert out == [KeyPress("K2")]


def test_a_press_shorter_than_the_window_still_counts_when_the_window_ends():
    g = KeyGestures(debounce_s=0.03, long_s=0.8)
    g.edge(Edge("K4", True, 1.0))
    assert g.edge(Edge("K4", False, 1.0)) == []
    assert g.next_deadline() == 1.03
    assert g.tick(1.02) == []
    assert g.tick(1.03) == [KeyPress("K4")]


def test_long_press_fires_while_held_and_release_gives_nothing():
    g = KeyGestures(debounce_s=0.03, long_s=0.8)
    g.edge(Edge("K1", True, 5.0))
    assert g.tick(5.79) == []
    assert g.tick(5.80) == [KeyPress("K1", long=True)]
    assert g.tick(6.5) == []
    assert g.edge(Edge("K1", False, 7.0)) == []
    assert g.tick(8.0) == []


def test_keys_are_independent():
    g = KeyGestures(debounce_s=0.03, long_s=0.8)
    g.edge(Edge("K1", True, 0.0))
    g.edge(Edge("K2", True, 0.1))
    assert g.edge(Edge("K2", False, 0.2)) == [KeyPress("K2")]
    assert g.tick(0.8) == [KeyPress("K1", long=True)]


def test_key_names_parse():
    assert KeyPress.parse("k3") == KeyPress("K3")
    assert KeyPress.parse("K2-long") == KeyPress("K2", True)
    assert str(KeyPress("K4", True)) == "K4-long"
    import pytest
    with pytest.raises(ValueError):
        KeyPress.parse("K5")


def test_two_quick_presses_stay_two_when_no_tick_came_between():
    """Issue 11, defect 9: a busy loop that did not tick between two presses of one key
    merged them (a piped "K3 K3 K2" then lost the second K3)."""
    g = KeyGestures(debounce_s=0.03, long_s=0.8)
    out = []
    for t, down in [(0.0, True), (0.001, False), (0.2, True), (0.201, False)]:
        out += g.edge(Edge("K3", down, t))
    out += g.tick(0.3)
    assert out == [KeyPress("K3"), KeyPress("K3")]



def test_the_simulated_finger_counts_its_waits_on_the_keypad_clock():
    """Issue 11, defect 9: on a busy machine the keypad stamps an edge a little after the
    loop read the clock; a finger counting from the loop's older time pressed again inside
    the quiet window, and a piped "K3 K3 K2" lost a press."""
    from device.simulated import Finger
    pins = {"K1": 5, "K2": 6, "K3": 13, "K4": 19}
    factory, now, lag, edges = MockFactory(), [0.0], [0.012], []
    clock = lambda: now[0] + lag[0]                  # noqa: E731  the callbacks run late
    pad = Keypad(pins, edges.append, clock, pin_factory=factory)
    gestures, finger, presses = KeyGestures(0.03, 0.8), Finger(factory, pins, 0.8, 0.03, clock), []
    finger.press(KeyPress("K3"), now[0])
    finger.press(KeyPress("K3"), now[0])
    lag[0] = 0.0                                     # the second press finds the machine idle
    while now[0] < 0.5:
        now[0] += 0.01
        finger.tick(now[0])
        for edge in edges:
            presses += gestures.edge(edge)
        edges.clear()
        presses += gestures.tick(now[0])
    assert presses == [KeyPress("K3"), KeyPress("K3")]
    pad.close()
    factory.close()
