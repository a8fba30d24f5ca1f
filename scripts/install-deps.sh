#!/usr/bin/env bash
# Installs the Debian 12 packages Lanescope builds and tests with, when any is missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
# LANESCOPE_WITH_NSYS=1 also installs Nsight Systems 2022.4 from Debian's contrib/non-free
# (for the .nsys-rep conversion tests; without it those tests say they were skipped).
# LANESCOPE_WITH_SLURM=1 also installs Slurm (slurm-wlm: slurmctld, slurmd, the client commands)
# and munge, about 13 MB, for tests/scale/slurm-compare-test.sh, which starts a one-node Slurm of
# its own (without them it says it was skipped). Opt-in because, on a machine with systemd,
# installing munge also starts and enables the system's munged.
# The list is what a minimal Debian 12 (debootstrap --variant=minbase bookworm) lacks to run
# CI=true ./test: checked in such a chroot, as root.
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config lld
          qt6-base-dev qt6-charts-dev qt6-svg-dev libgl-dev libqt6opengl6-dev
          libsqlite3-dev libprotobuf-dev protobuf-compiler libspdlog-dev catch2
          libsimdjson-dev zlib1g-dev liblz4-dev xvfb xauth
          clang-format clang-tidy dpkg-dev file desktop-file-utils shared-mime-info libxml2-utils xz-utils git
          pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest)

[ "${LANESCOPE_WITH_SLURM:-0}" = "1" ] && packages+=(slurm-wlm munge)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "Lanescope needs these Debian packages; install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "Installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "${LANESCOPE_WITH_NSYS:-0}" = "1" ] && ! command -v nsys >/dev/null; then
  [ "$(id -u)" -eq 0 ] || { echo "LANESCOPE_WITH_NSYS=1 needs root to install nsight-systems" >&2; exit 1; }
  cat > /etc/apt/sources.list.d/debian-contrib-nonfree.sources <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nsight-systems >/dev/null
fi
