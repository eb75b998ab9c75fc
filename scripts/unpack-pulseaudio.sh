#!/usr/bin/env bash
# Usage: scripts/unpack-pulseaudio.sh [DIR]   (default: $RESTD_PULSEAUDIO, else /var/cache/restd-test/pulseaudio)
# Unpacks Debian's PulseAudio daemon (package `pulseaudio`) and the libraries it needs beyond the
# test machine's into DIR, without installing it: the package conflicts with the PipeWire packages
# a Debian desktop has (pipewire-audio, pipewire-alsa), and installing it would also enable its user
# units for every login. The audio tests run DIR/usr/bin/pulseaudio with DIR's libraries first
# (ProcessHarness/Audio/PulseAudioDaemon.swift). The .debs come from this machine's apt sources
# (`apt-get download`); nothing is done when DIR holds the version apt offers today.
set -euo pipefail
dir=${1:-${RESTD_PULSEAUDIO:-/var/cache/restd-test/pulseaudio}}
# Its libraries that a machine with PipeWire's PulseAudio server, libpulse and GStreamer lacks.
packages=(pulseaudio libfftw3-single3 libsoxr0 libspeexdsp1 libwrap0 libwebrtc-audio-processing1 libtdb1 liborc-0.4-0 libltdl7)
version=$(apt-cache policy pulseaudio | awk '$1 == "Candidate:" { print $2 }')
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
  echo "error: apt knows no package pulseaudio (apt-get update?)" >&2
  exit 1
fi
[ "$(cat "$dir/version" 2>/dev/null || true)" = "$version" ] && exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"  # apt downloads as user _apt
(cd "$work" && apt-get download -q "${packages[@]}" >/dev/null)
rm -rf "$dir.new"
mkdir -p "$dir.new"
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$dir.new"; done
echo "$version" >"$dir.new/version"
rm -rf "$dir"
mv "$dir.new" "$dir"
echo "unpacked PulseAudio $version into $dir"
