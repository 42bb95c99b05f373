# shellcheck shell=bash
# Sourced: apt_install PACKAGE... installs Debian packages (root only), updating the
# package lists when they are missing or CHAPAR_APT_UPDATE is set. Another install
# running at the same time (dpkg's lock held) is waited for, up to ten minutes.
apt_install() {
  if [ "$(id -u)" != 0 ]; then
    printf '[apt] need root to install %s; install them and run again\n' "$*" >&2
    return 1
  fi
  printf '[apt] installing %s\n' "$*" >&2
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -print -quit 2>/dev/null)" ] || [ -n "${CHAPAR_APT_UPDATE:-}" ]; then
    apt-get -o DPkg::Lock::Timeout=600 update -qq
  fi
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >/dev/null ||
    { apt-get -o DPkg::Lock::Timeout=600 update -qq && apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >/dev/null; }
}
