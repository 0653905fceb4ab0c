# Two commands set TableMate up on a fresh machine:
#   make run    installs what is missing (apt packages, a venv, the package) and starts it
#   make test   the same set-up plus the test tools, then the whole test suite
# On a Raspberry Pi the same targets use apt's OpenCV, numpy, picamera2 and lgpio through a
# venv made with --system-site-packages (pip's numpy 2 / opencv-python break the camera stack).

VENV     ?= .venv
PI_MODEL ?= /proc/device-tree/model
IS_PI    := $(shell grep -qs 'Raspberry Pi' $(PI_MODEL) && echo yes)
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

ifeq ($(IS_PI),yes)
# apt's picamera2, cv2 and lgpio are installed for the system's Python: a venv made from a
# pyenv or /usr/local python3 that happens to come first on PATH would not see them.
PYTHON   ?= /usr/bin/python3
# cbor2 (needed by luma) and Pillow from apt too: pip would build cbor2 from source on
# 32-bit Raspberry Pi OS, where its newest release has no armv7 wheel.
APT_RUN   = python3-venv python3-pip python3-opencv python3-numpy python3-lgpio python3-cbor2 python3-pil python3-tesserocr \
            tesseract-ocr i2c-tools
APT_LEAN  = python3-picamera2   # without recommends: no desktop preview stack on Lite images
VENV_ARGS = --system-site-packages
PIP_ARGS  = --prefer-binary
EXTRAS    = pi
else
PYTHON   ?= python3
APT_RUN   = python3-venv tesseract-ocr
APT_LEAN  =
VENV_ARGS =
PIP_ARGS  =
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
# $(call apt_install,packages,extra apt-get flags)
apt_install = missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "Installing system packages:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(2) $$missing; fi

apt-run:
	@$(call apt_install,$(APT_RUN),)
	@$(call apt_install,$(APT_LEAN),--no-install-recommends)

apt-test: apt-run
	@$(call apt_install,$(APT_TEST),)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV_ARGS) $(VENV)

$(VENV)/.installed-$(EXTRAS): pyproject.toml | apt-run $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q $(PIP_ARGS) -e '.[$(EXTRAS)]'
	touch $@

$(VENV)/.installed-$(EXTRAS)-test: pyproject.toml | apt-run $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q $(PIP_ARGS) -e '.[$(EXTRAS),test]'
	touch $@

clean:
	rm -rf $(VENV) *.egg-info
