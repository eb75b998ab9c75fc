// The Plasma widget's pure module (contents/code/widget.mjs, which imports the GNOME extension's
// lib/format.js and lib/timers.js through its format.mjs and timers.mjs links) under `gjs -m`,
// with injected times: nothing depends on the day or the time zone.
// Run: gjs -m plasma/tests/pure.test.js [PACKAGE_DIR] (plasma/io.restd.rest by default, or an installed copy).

import Gio from 'gi://Gio';

import {equal, finish} from '../../gnome-extension/tests/checks.js';

const dir = ARGV[0] ? Gio.File.new_for_path(ARGV[0]) : Gio.File.new_for_uri(import.meta.url).resolve_relative_path('../../io.restd.rest');
const W = await import(dir.resolve_relative_path('contents/code/widget.mjs').get_uri());
const {SOURCE_TEXTS: EN, restRecord} = await import(dir.resolve_relative_path('contents/code/format.mjs').get_uri());

const S = 1_000_000;
// An arbitrary instant (2026-11-21T21:10:00Z): nothing below depends on which.
const NOW = 1_795_295_400 * S;
const TIMER = 'io.restd.Rest1.Timer';
function properties(id, fields) {
    return {Id: id, State: 'running', Label: '', Next: '', EndsAtUSec: NOW + 83 * S, ...fields};
}

// Plasma's D-Bus module wraps basic values in typed objects with `value` and toString().
class Wrapped {
    constructor(value, text) {
        this.value = value;
        this.text = text;
    }

    toString() {
        return this.text ?? String(this.value);
    }
}
equal(W.plain({a: [new Wrapped(5), new Wrapped('x')], b: {c: new Wrapped(true)}, d: 'e'}),
    {a: [5, 'x'], b: {c: true}, d: 'e'}, 'plain unwraps numbers, booleans and strings in containers');
equal(W.plain(new Wrapped({}, '/io/restd/Rest1/timer/a')), '/io/restd/Rest1/timer/a', 'an object path is its text');
equal(W.plain(null), null, 'null stays');

// GetManagedObjects' reply: only timers under the timer prefix with the Timer interface.
const objects = {
    '/io/restd/Rest1/timer/default': {[TIMER]: properties('default', {Label: 'Squat'})},
    '/io/restd/Rest1/timer/b': {[TIMER]: properties('b', {EndsAtUSec: NOW + 10 * S})},
    '/io/restd/Rest1/live': {'io.restd.Rest1.Live': {Fields: {}}},
    '/io/restd/Rest1/timer/c': {'org.freedesktop.DBus.Peer': {}},
};
const timers = W.timersFromObjects(objects);
equal(Object.keys(timers), ['/io/restd/Rest1/timer/default', '/io/restd/Rest1/timer/b'], 'timers from GetManagedObjects');
equal(timers['/io/restd/Rest1/timer/default'].label, 'Squat', 'a timer\'s properties');
equal(W.timersFromObjects(null), {}, 'no reply, no timers');
equal(W.removesTimer('/io/restd/Rest1/timer/b', [TIMER]), true, 'InterfacesRemoved of a timer');
equal(W.removesTimer('/io/restd/Rest1/live', ['io.restd.Rest1.Live']), false, 'InterfacesRemoved of something else');

// Which timer: GNOME's rule by default, or the last changed, or a named one, falling back.
const list = Object.values(timers);
equal(W.shownTimer(list, W.FOLLOW_AUTOMATIC, '', 'b').id, 'default', 'automatic: default first');
equal(W.shownTimer(list, W.FOLLOW_LAST_CHANGED, '', 'b').id, 'b', 'the last changed');
equal(W.shownTimer(list, W.FOLLOW_LAST_CHANGED, '', 'gone').id, 'default', 'the last changed is gone: automatic');
equal(W.shownTimer(list, W.FOLLOW_ID, 'b', '').id, 'b', 'a named timer');
equal(W.shownTimer(list, W.FOLLOW_ID, 'zzz', '').id, 'default', 'a named timer that does not exist: automatic');
equal(W.shownTimer([], W.FOLLOW_AUTOMATIC, '', ''), null, 'no timer');
const later = {...timers, '/io/restd/Rest1/timer/b': W.withProperties(timers['/io/restd/Rest1/timer/b'], {State: 'paused'})};
equal(W.changedTimerId(timers, later), 'b', 'the changed timer');
equal(W.changedTimerId(timers, timers), '', 'nothing changed');

// The panel's words: the GNOME label's, with the settings.
const squat = timers['/io/restd/Rest1/timer/default'];
const live = {heart_rate: 128, progress_done: 3, progress_total: 5};
equal(W.compactText(squat, live, NOW, EN), '1:23 Squat ♥128 3/5', 'as the GNOME label');
equal(W.compactText(squat, live, NOW, EN, {showExercise: false}), '1:23 ♥128 3/5', 'without the exercise');
equal(W.compactText(squat, live, NOW, EN, {showHeartRate: false}), '1:23 Squat 3/5', 'without the heart rate');
equal(live.heart_rate, 128, 'the live fields are not changed');
equal(W.compactText(squat, null, NOW + 90 * S, EN), '+0:07 Squat', 'over');
const paused = W.withProperties(squat, {State: 'paused', RemainingUSec: 62 * S});
equal([W.compactText(paused, null, NOW, EN), W.compactIcon(paused)], ['1:02 Squat', 'media-playback-pause-symbolic'], 'paused');
equal(W.compactIcon(squat), null, 'no icon while running');
const ringing = W.withProperties(squat, {State: 'expired', ExpiredAtUSec: NOW - 12 * S, Ringing: true});
equal([W.compactText(ringing, live, NOW, EN), W.compactIcon(ringing)], ['+0:12 ringing Squat ♥128 3/5', 'audio-volume-high-symbolic'],
    'ringing: the GNOME label\'s words, after a loudspeaker');
equal(W.compactText(ringing, null, NOW, {gettext: text => `⟦${text}⟧`}), '+0:12 ⟦ringing⟧ Squat',
    'the panel\'s word goes through the widget\'s catalog (texts, i18n() in main.qml)');
equal([W.verticalText(ringing, NOW), W.verticalText(paused, NOW), W.verticalText(squat, NOW)], ['+0:12', '1:02', '1:23'],
    'a vertical panel: the time alone');
equal([W.awaitsEnd(squat, NOW), W.awaitsEnd(squat, NOW + 83 * S), W.awaitsEnd(ringing, NOW), W.awaitsEnd(paused, NOW + 90 * S),
    W.awaitsEnd(null, NOW)], [false, true, false, false, false], 'ran out by the local count, restd not yet saying so');

// Emphasis: pre-alert, paused, over.
equal(W.emphasis(squat, NOW), 'running', 'running');
equal(W.emphasis(W.withProperties(squat, {WarnUSec: 90 * S}), NOW), 'warning', 'within the pre-alert');
equal(W.emphasis(paused, NOW), 'paused', 'paused');
equal(W.emphasis(squat, NOW + 84 * S), 'over', 'over');
equal(W.emphasis(ringing, NOW), 'over', 'ringing: as over');

// Redraws: once per second of the timer's own, none while paused or without a timer.
equal(W.msUntilRedraw(squat, NOW), 1000, 'on the second boundary');
equal(W.msUntilRedraw(squat, NOW + S / 4), 750, 'a quarter second in');
equal(W.msUntilRedraw(paused, NOW), -1, 'paused: no redraw');
equal(W.msUntilRedraw(null, NOW), -1, 'no timer: no redraw');

// The popup.
equal(W.summary(squat, NOW), {name: 'Squat', kind: 'left', time: '1:23'}, 'summary running');
equal(W.summary(paused, NOW), {name: 'Squat', kind: 'paused', time: '1:02'}, 'summary paused');
equal(W.summary(squat, NOW + 95 * S), {name: 'Squat', kind: 'over', time: '0:12'}, 'summary over');
equal(W.summary(ringing, NOW), {name: 'Squat', kind: 'ringing', time: '0:12'}, 'summary ringing');
equal(W.summary(timers['/io/restd/Rest1/timer/b'], NOW).name, 'b', 'a timer without a label by its id');
const names = t => W.actions(t, NOW).map(a => a.action);
equal(names(squat), ['pause', 'add', 'subtract', 'skip', 'setDone'], 'running: its buttons');
equal(names(paused), ['resume', 'add', 'subtract', 'skip', 'setDone'], 'paused: resume');
equal(W.actions(squat, NOW + 90 * S).map(a => a.action), ['add', 'setDone'], 'over: +30 s and Set done');
equal(names(null), ['setDone'], 'no timer: Set done');
equal(names(ringing), ['stop', 'add', 'setDone'], 'ringing: Stop first');
equal(W.actions(ringing, NOW)[0], {action: 'stop', method: 'Silence', signature: '(s)', args: ['default']}, 'Stop silences the timer');
equal(W.actions(squat, NOW)[2], {action: 'subtract', method: 'Adjust', signature: '(sx)', args: ['default', -15 * S]}, 'the −15 s call');
equal(W.actions(null, NOW)[0], {action: 'setDone', method: 'CompleteSet', signature: '(ssa{sv})', args: ['', '', {}]}, 'Set done on the default timer');
equal(W.otherTimers(list, squat).map(t => t.id), ['b'], 'the other timers');

// The workout.
equal(W.workoutInfo(null), null, 'no workout');
equal(W.workoutInfo({Active: false}), null, 'an ended workout');
const pushDay = {
    Active: true, Name: 'Push day', SetsPlanned: 15, SetsDone: 3, Exercise: 'Squat', SetIndex: 4,
    Plan: [{name: 'Squat', sets: 5}],
};
equal(W.workoutInfo(pushDay), {name: 'Push day', set: 4, planned: 15, exercise: 'Squat', setIndex: 4, exerciseSets: 5}, 'a workout');
equal(W.workoutInfo({Active: true, SetsPlanned: 2, SetsDone: 2}),
    {name: '', set: 2, planned: 2, exercise: '', setIndex: 0, exerciseSets: 0}, 'a finished workout without a name');

// "Open report": GNOME's command, one shell line with the path quoted.
const report = W.reportCommand("/home/a b/it's");
equal(report.path, "/home/a b/it's/restd/report.html", 'the report in the cache');
equal(report.command.startsWith("'sh' '-c' 'mkdir -p"), true, 'the command is sh -c');
equal(report.command.endsWith("'sh' '/home/a b/it'\\''s/restd/report.html'"), true, 'the path quoted');

// The popup's record line: SetRecorded's entry of the set that started the shown rest, its weights in
// the Manager's unit; a timer from D-Bus (StartedAtUSec as the set's at_usec) shows it, one started
// again does not. 245 lb is kept as 111.13 kg.
const recordSet = {
    timer: 'default', at_usec: NOW - 20 * S, exercise: 'Squat', reps: 3, weight_kg: 111.13,
    record_heaviest_was_kg: 102.06, record_e1rm_kg: 122.243, record_e1rm_was_kg: 119.07,
};
const recordTimer = W.timerFromInterfaces('/io/restd/Rest1/timer/default',
    {[TIMER]: properties('default', {Label: 'Squat', StartedAtUSec: recordSet.at_usec})});
equal(restRecord(recordTimer, recordSet, 'lb', EN),
    'record: Squat 245 lb × 3, heaviest (was 225 lb), estimated 1RM 269.5 lb (was 262.5)', 'record line in pounds');
equal(restRecord({...recordTimer, startedAtUsec: NOW}, recordSet, 'lb', EN), null, 'a rest started again: no record line');

finish('plasma pure tests');
