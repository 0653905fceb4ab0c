# Two commands set TableMate up on a fresh machine:
#   make run    installs what is missing (apt packages, a venv, the package) and starts it
#   make test   the same set-up plus the test tools, then the whole test suite
# On a Raspberry Pi the same targets use apt's OpenCV, numpy, picamera2 and lgpio through a
# venv made with --system-site-packages (pip's numpy 2 / opencv-python break the camera stack).

VENV    ?= .venv
PYTHON  ?= python3
IS_PI   := $(shell grep -qs 'Raspberry Pi' /proc/device-tree/model && echo yes)
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

ifeq ($(IS_PI),yes)
APT_RUN   = python3-venv python3-pip python3-opencv python3-numpy python3-picamera2 python3-lgpio tesseract-ocr i2c-tools
VENV_ARGS = --system-site-packages
EXTRAS    = pi
else
APT_RUN   = python3-venv tesseract-ocr
VENV_ARGS =
EXTRAS    = pc
endif
APT_TEST  = systemd fonts-liberation fonts-freefont-ttf   # the bench's held-out fonts

.PHONY: run test bench doctor apt-run apt-test clean

run: $(VENV)/.installed-$(EXTRAS)
	$(VENV)/bin/tablemate

test: apt-test $(VENV)/.installed-$(EXTRAS)-test
	$(VENV)/bin/python -m pytest

bench: apt-test $(VENV)/.installed-$(EXTRAS)
	$(VENV)/bin/tablemate bench

doctor: $(VENV)/.installed-$(EXTRAS)
	$(VENV)/bin/tablemate doctor

# apt only runs when a package is really missing, so a set-up machine needs no sudo.
apt-run:
	@missing=$$(for p in $(APT_RUN); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "Installing system packages:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

apt-test: apt-run
	@missing=$$(for p in $(APT_TEST); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "Installing system packages:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV_ARGS) $(VENV)

$(VENV)/.installed-$(EXTRAS): pyproject.toml | apt-run $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[$(EXTRAS)]'
	touch $@

$(VENV)/.installed-$(EXTRAS)-test: pyproject.toml | apt-run $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[$(EXTRAS),test]'
	touch $@

clean:
	rm -rf $(VENV) *.egg-info
