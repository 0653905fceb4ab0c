#!/usr/bin/env bash
# Install TableMate as a service on Raspberry Pi OS (Bookworm or later), from this checkout:
#   sudo systemd/install-pi.sh
# It installs the apt packages (camera, OpenCV, numpy, lgpio and Tesseract come from apt:
# pip's numpy 2 / opencv-python break the Pi camera stack), copies TableMate to
# /opt/tablemate with a venv made --system-site-packages, enables I2C, creates the user
# `tablemate` in the gpio, i2c and video groups, and starts the service.
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "Run it with sudo: sudo $0" >&2; exit 1; }
src="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/tablemate

apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make python3-venv python3-pip python3-opencv \
  python3-numpy python3-picamera2 python3-lgpio tesseract-ocr i2c-tools rsync

if command -v raspi-config >/dev/null; then
  raspi-config nonint do_i2c 0          # 0 means "enable"
fi

id tablemate >/dev/null 2>&1 || useradd --system --home-dir /var/lib/tablemate --shell /usr/sbin/nologin tablemate
for group in gpio i2c video; do
  getent group "$group" >/dev/null && usermod -aG "$group" tablemate
done

mkdir -p "$prefix"
rsync -a --delete --exclude .venv --exclude .git "$src/" "$prefix/"
make -C "$prefix" .venv/.installed-pi    # the Makefile sees the Pi and uses --system-site-packages
install -m 0644 "$prefix/systemd/tablemate.service" /etc/systemd/system/tablemate.service
systemctl daemon-reload
systemctl enable --now tablemate.service
echo "TableMate is running. Logs: journalctl -u tablemate -f   Checks: sudo -u tablemate $prefix/.venv/bin/tablemate doctor"
