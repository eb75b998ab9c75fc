#!/usr/bin/env bash
# The tests that read the clock, the calendar or the locale, run again on other days, in extreme
# time zones and in another language: a test that passes only today, or only in UTC, fails here.
#
#   scripts/test-calendar.sh SWIFT BIN_DIR [SWIFT_FLAGS…]
#
# - The unit suites (RestCore, RestNotify, RestClient, RestDaemon, TOML), whose clocks are injected:
#   started at RESTD_TEST_NOW (a year from now, both daylight-saving changes of 2027 in Europe, a
#   leap day) in UTC+14, UTC-11, Europe/Berlin and America/Santiago (where a change skips midnight),
#   each zone on the two days that matter there (unit_runs).
#   LocalCalendarTests walks 400 days from there, across every change of the zone.
# - The integration tests tagged .calendar (Tests/IntegrationTests/Support/Tags.swift): those that
#   store, show or count times (fixtures, history, stats, workouts, "ended 3 min ago", the bars,
#   MPRIS, the training report), against a real restd, in UTC+14 and
#   UTC-11 with LANG=de_DE.UTF-8. They run on the real date: libfaketime cannot shift it for restd, whose
#   sd-event loop it breaks (it moves CLOCK_MONOTONIC timerfd deadlines too: EINVAL), so the
#   stored fixtures are shifted to "now" by the tests themselves (StateFile.fixture).
#
# Each run's output is kept in .build/test-calendar/; a failing run prints its failures.
set -euo pipefail

swift=$1
bin_dir=$2
shift 2

unit='^(RestCoreTests|RestNotifyTests|RestClientTests|RestDaemonTests|TOMLTests)\.'
integration=$(scripts/tagged-tests.sh "$bin_dir" calendar)
year_ahead=$(($(date +%s) + 365 * 86400))
dst_forward=$(date -d '2027-03-28T00:59:30Z' +%s)  # 30 s before Europe's clocks go forward
dst_back=$(date -d '2027-10-31T00:59:30Z' +%s)     # 30 s before they go back
leap_day_end=$(date -d '2028-02-29T23:59:30Z' +%s) # the end of a leap day in UTC
# Each zone on the days that test something there: Europe's changes in Berlin; a day a year
# ahead and the end of a leap day in the zones without daylight saving (the date differs most
# from UTC's there) and in Santiago, whose own changes LocalCalendarTests' 400-day walk crosses.
unit_runs=(
  "Europe/Berlin $dst_forward" "Europe/Berlin $dst_back"
  "Pacific/Kiritimati $year_ahead" "Pacific/Kiritimati $leap_day_end"
  "Pacific/Pago_Pago $year_ahead" "Pacific/Pago_Pago $leap_day_end"
  "America/Santiago $year_ahead" "America/Santiago $leap_day_end"
)
zones=(Pacific/Kiritimati Pacific/Pago_Pago Europe/Berlin America/Santiago)

for zone in "${zones[@]}"; do
  [ -f "/usr/share/zoneinfo/$zone" ] || { echo "error: time zone $zone is missing (install tzdata)" >&2; exit 1; }
done

export RESTD_BIN_DIR=$bin_dir
logs=.build/test-calendar
mkdir -p "$logs"
failed=0

# run NAME ENV… -- SWIFT TEST ARGS…: one run, one summary line.
run() {
  local log="$logs/$1.log" settings=()
  shift
  while [ "$1" != -- ]; do settings+=("$1"); shift; done
  shift
  if env "${settings[@]}" "$swift" test --skip-build "$@" >"$log" 2>&1; then
    echo "calendar: ${settings[*]}: $(grep -E 'Test run with [0-9]+ tests' "$log" | tail -n 1 | sed 's/^[^T]*//')"
  else
    echo "calendar: ${settings[*]}: FAILED (the whole output is in $log)"
    grep -E -A6 '✘|error:|Fatal error|Test crashed' "$log" | grep -v '^✔' | tail -n 60 || true
    failed=1
  fi
}

for zone_and_day in "${unit_runs[@]}"; do
  read -r zone day <<<"$zone_and_day"
  run "unit-${zone//\//-}-$day" TZ="$zone" RESTD_TEST_NOW="$day" -- "$@" --filter "$unit"
done
for zone in Pacific/Kiritimati Pacific/Pago_Pago; do
  run "integration-${zone//\//-}" TZ="$zone" LANG=de_DE.UTF-8 -- "$@" --filter "$integration"
done
exit "$failed"
