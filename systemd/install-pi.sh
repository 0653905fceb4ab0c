#!/usr/bin/env bash
# Install or update TableMate as a service on Raspberry Pi OS (Bookworm or later, 32 or
# 64 bit), from this checkout:
#   sudo systemd/install-pi.sh
# It installs the apt packages (camera, OpenCV, numpy, lgpio, cbor2, Pillow and Tesseract
# come from apt: pip's numpy 2 / opencv-python break the Pi camera stack, and pip would
# have to build cbor2 from source on 32-bit), enables I2C at 400 kHz, creates the user
# `tablemate` in the gpio, i2c and video groups, stops a running TableMate, copies this
# checkout to /opt/tablemate with a venv made --system-site-packages, and (re)starts it.
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "Run it with sudo: sudo $0" >&2; exit 1; }
src="$(cd "$(dirname "$0")/.." && pwd)"
prefix="${TABLEMATE_PREFIX:-/opt/tablemate}"
units="${TABLEMATE_UNIT_DIR:-/etc/systemd/system}"
boot_config="${TABLEMATE_BOOT_CONFIG:-}"
if [ -z "$boot_config" ]; then
  boot_config=/boot/firmware/config.txt
  [ -f "$boot_config" ] || boot_config=/boot/config.txt   # before Bookworm
fi

apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make python3-venv python3-pip python3-opencv \
  python3-numpy python3-lgpio python3-cbor2 python3-pil python3-tesserocr tesseract-ocr i2c-tools rsync
# Without recommends, picamera2 leaves out the desktop preview stack (Qt, OpenGL) on Lite images.
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-picamera2

if command -v raspi-config >/dev/null; then
  raspi-config nonint do_i2c 0          # 0 means "enable"
fi
# A full frame is about 1 KB: 92 ms at the default 100 kHz, 23 ms at 400 kHz.
if [ -f "$boot_config" ] && ! grep -q '^dtparam=i2c_arm_baudrate=' "$boot_config"; then
  printf '\n[all]\ndtparam=i2c_arm_baudrate=400000\n' >> "$boot_config"
  echo "I2C set to 400 kHz in $boot_config: it takes effect at the next reboot."
fi

id tablemate >/dev/null 2>&1 || useradd --system --home-dir /var/lib/tablemate --shell /usr/sbin/nologin tablemate
for group in gpio i2c video; do
  getent group "$group" >/dev/null && usermod -aG "$group" tablemate
done

# `enable --now` would leave an old version running; and its files must not change under it.
if systemctl is-active --quiet tablemate.service; then
  echo "Stopping the running TableMate to update it."
  systemctl stop tablemate.service
fi
mkdir -p "$prefix"
rsync -a --delete --exclude .venv --exclude .git "$src/" "$prefix/"
make -C "$prefix" .venv/.installed-pi    # the Makefile sees the Pi: /usr/bin/python3, --system-site-packages
install -m 0644 "$prefix/systemd/tablemate.service" "$units/tablemate.service"
systemctl daemon-reload
systemctl enable tablemate.service
systemctl restart tablemate.service
echo "TableMate is running. Logs: journalctl -u tablemate -f   Checks: sudo -u tablemate $prefix/.venv/bin/tablemate doctor"
