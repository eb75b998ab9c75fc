// The extension's pure modules under `gjs -m`, with injected times (no clock is read, so the
// results do not depend on the day or the time zone). Run: gjs -m gnome-extension/tests/pure.test.js
// [EXTENSION_DIR] — the ES module sources (src/) by default, or the generated 45+ build.

import GLib from 'gi://GLib';
import Gio from 'gi://Gio';

import {equal, finish} from './checks.js';

const dir = ARGV[0] ? Gio.File.new_for_path(ARGV[0]) : Gio.File.new_for_uri(import.meta.url).resolve_relative_path('../../src');
const lib = name => import(dir.resolve_relative_path(`lib/${name}`).get_uri());
const {
    SOURCE_TEXTS: EN, clock, displayWidth, fill, msUntilNextChange, panelIcon, panelText, recordLine, restRecord, styleClasses,
    timeText, truncate, weightText,
} = await lib('format.js');
const {chooseTimer, emptyTimer, orderTimers, withProperties} = await lib('timers.js');
const {menuItems, workoutLines} = await lib('menuModel.js');
const {execLine, historyLabel, historyView, reportArgv, reportPath, terminalArgv} = await lib('history.js');

const S = 1_000_000;
// An arbitrary instant (2026-11-21T21:10:00Z): nothing below depends on which.
const NOW = 1_795_295_400 * S;
function timer(fields) {
    return {...emptyTimer(), id: 'default', state: 'running', ...fields};
}

// Clock text, as restctl writes it.
equal([0, 5, 59, 60, 90, 599, 3599, 3600, 3661, 86400].map(clock),
    ['0:00', '0:05', '0:59', '1:00', '1:30', '9:59', '59:59', '1:00:00', '1:01:01', '24:00:00'], 'clock');

// Rounding at second boundaries: up while counting down, down for overtime.
const ends = NOW + 90 * S;
const running = timer({endsAtUsec: ends, label: 'Squat'});
equal(timeText(running, NOW), '1:30', 'a fresh 90 s rest');
equal(timeText(running, NOW + 1), '1:30', '1 µs later, still 1:30');
equal(timeText(running, NOW + S - 1), '1:30', 'just before a second has gone');
equal(timeText(running, NOW + S), '1:29', 'exactly one second gone');
equal(timeText(running, ends - 1), '0:01', 'the last microsecond');
equal(timeText(running, ends), '+0:00', 'at the deadline: over');
equal(timeText(running, ends + S - 1), '+0:00', 'overtime rounds down');
equal(timeText(running, ends + 12 * S), '+0:12', 'overtime');
equal(timeText(timer({endsAtUsec: NOW + 3600 * S}), NOW), '1:00:00', 'an hour left');

// When the label next changes: on the timer's own second boundaries.
equal(msUntilNextChange(running, NOW), 1000, 'a whole second left to the next change');
equal(msUntilNextChange(running, NOW + S / 4), 750, 'three quarters');
equal(msUntilNextChange(running, NOW + S - 1), 1, 'a microsecond: rounded up to 1 ms');
equal(msUntilNextChange(running, ends + S / 2), 500, 'overtime ticks too');
equal(msUntilNextChange(timer({state: 'paused', remainingUsec: 5 * S}), NOW), -1, 'paused: no tick');
equal(msUntilNextChange(timer({state: 'expired', expiredAtUsec: NOW - S / 2}), NOW), 500, 'over, from ExpiredAtUSec');

// Panel text.
const live = {heart_rate: 128, progress_done: 3, progress_total: 5};
equal(panelText(timer({endsAtUsec: NOW + 83 * S, label: 'Squat'}), live, NOW, EN), '1:23 Squat ♥128 3/5', 'running with live');
equal(panelText(timer({endsAtUsec: NOW + 83 * S, label: 'Squat'}), null, NOW, EN), '1:23 Squat', 'no live activity');
equal(panelText(timer({endsAtUsec: NOW + 83 * S}), {heart_rate: 128}, NOW, EN), '1:23 ♥128', 'no label, heart rate only');
equal(panelText(timer({endsAtUsec: NOW + 83 * S}), {progress_done: 0, progress_total: 0}, NOW, EN), '1:23', 'progress 0/0 is not shown');
const paused = timer({state: 'paused', remainingUsec: 62 * S - 1, endsAtUsec: 0, label: 'Squat'});
equal(panelText(paused, null, NOW, EN), '1:02 Squat', 'paused: the frozen time');
equal(panelText(paused, null, NOW + 3600 * S, EN), '1:02 Squat', 'paused does not move with time');
equal(panelIcon(paused), 'media-playback-pause-symbolic', 'paused: a symbolic pause mark from the icon theme');
const expired = timer({state: 'expired', expiredAtUsec: NOW - 12 * S, label: 'Squat'});
equal(panelText(expired, null, NOW, EN), '+0:12 Squat', 'over');
equal([timer({endsAtUsec: NOW + S}), expired].map(panelIcon), [null, null], 'running or over: no icon');
const ringing = {...expired, ringing: true};
equal(panelIcon(ringing), 'audio-volume-high-symbolic', 'ringing: a loudspeaker from the icon theme');
equal(panelText(ringing, {heart_rate: 128}, NOW, EN), '+0:12 ringing Squat ♥128', 'ringing: the overtime, then the word, as the status bars');
equal(styleClasses(ringing, NOW), ['restd-over', 'restd-ringing'], 'ringing: its own class');
equal(withProperties(emptyTimer(), {Ringing: true}).ringing, true, 'Ringing read as a boolean');
equal(withProperties({...emptyTimer(), ringing: true}, {Ringing: false}).ringing, false, 'and back');

// Style classes: the pre-alert and the last seconds are visible, not only in the text.
const warned = timer({endsAtUsec: NOW + 30 * S, warnUsec: 20 * S});
equal(styleClasses(warned, NOW), ['restd-running'], 'before the pre-alert');
equal(styleClasses(warned, NOW + 10 * S), ['restd-running', 'restd-warning'], 'at the pre-alert');
equal(styleClasses(warned, NOW + 20 * S), ['restd-running', 'restd-warning', 'restd-last-seconds'], 'last ten seconds');
equal(styleClasses(warned, NOW + 30 * S), ['restd-over'], 'over');
equal(styleClasses(paused, NOW), ['restd-paused'], 'paused');

// Wide characters: CJK and emoji take two columns, marks none; cuts never split a character.
equal(displayWidth('Squat'), 5, 'latin width');
equal(displayWidth('スクワット'), 10, 'katakana width');
equal(displayWidth('e\u0301'), 1, 'combining mark');
equal(displayWidth('🏋️'), 2, 'emoji with variation selector');
equal(truncate('Squat', 24), 'Squat', 'short: unchanged');
equal(truncate('ベンチプレスとスクワットとデッドリフト', 10), 'ベンチプ…', 'CJK cut by columns: 4 × 2 + 1');
equal(truncate('Romanian deadlift with pause', 10), 'Romanian…', 'latin cut, no space before …');
equal(truncate('😀😀😀😀😀😀', 5), '😀😀…', 'emoji not split in a surrogate pair');
equal(truncate('Cafe\u0301 au lait et croissant', 5), 'Cafe\u0301…', 'a mark stays with its letter');
equal(truncate('ab👨\u200D👩\u200D👧xyz', 5), 'ab👨…', 'no dangling joiner');
const longLabel = timer({endsAtUsec: NOW + 83 * S, label: '深蹲'.repeat(20)});
equal(panelText(longLabel, live, NOW, EN), `1:23 ${'深蹲'.repeat(5)}深… ♥128 3/5`, 'a long wide label is cut in the panel');

// Which timer: default, else the one ending soonest.
const t = (id, fields) => timer({id, ...fields});
equal(chooseTimer([]), null, 'no timer');
equal(chooseTimer([t('b', {endsAtUsec: NOW + 50 * S}), t('a', {endsAtUsec: NOW + 60 * S})]).id, 'b', 'soonest deadline');
equal(chooseTimer([t('z', {endsAtUsec: NOW + 5 * S}), t('default', {state: 'paused', remainingUsec: 90 * S})]).id,
    'default', 'default wins, even paused');
equal(chooseTimer([t('p', {state: 'paused', remainingUsec: S}), t('r', {endsAtUsec: NOW + 600 * S})]).id,
    'r', 'running before paused');
equal(chooseTimer([t('p', {state: 'paused', remainingUsec: S}), t('x', {state: 'expired', expiredAtUsec: NOW})]).id,
    'x', 'over before paused');
equal(orderTimers([t('x1', {state: 'expired', expiredAtUsec: NOW - S}), t('x2', {state: 'expired', expiredAtUsec: NOW}),
    t('b', {endsAtUsec: NOW}), t('a', {endsAtUsec: NOW})]).map(x => x.id), ['a', 'b', 'x2', 'x1'], 'full order, ties by id');
equal(chooseTimer([{...emptyTimer(), id: 'half-known'}]), null, 'a timer without a state yet is not shown');

// D-Bus properties onto timers.
const fromBus = withProperties(emptyTimer(), {Id: 'bench-press', State: 'running', EndsAtUSec: NOW, Label: 'Bench', Unknown: 1});
equal([fromBus.id, fromBus.state, fromBus.endsAtUsec, fromBus.label, fromBus.Unknown], ['bench-press', 'running', NOW, 'Bench', undefined], 'properties');
equal(withProperties(fromBus, {State: 'paused', RemainingUSec: 5 * S}).remainingUsec, 5 * S, 'a change');

// The menu.
const texts = items => items.map(i => i.type === 'separator' ? '—' : i.text);
const base = {connected: true, followedId: 'default', workout: null, lastSet: null, error: null, historyView: null};
equal(texts(menuItems({...base, connected: false, timers: []}, NOW, EN)), ['restd is not running'], 'menu: restd away');
equal(menuItems({...base, connected: false, timers: [], error: 'no interface file'}, NOW, EN).map(i => i.type),
    ['info', 'error'], 'menu: restd away, and an error (e.g. no interface file) still shows');
equal(texts(menuItems({...base, timers: [], followedId: null}, NOW, EN)), ['No rest running', '—', 'Set done'], 'menu: no timer');
const runningMenu = menuItems({...base, timers: [timer({endsAtUsec: NOW + 83 * S, label: 'Squat', next: 'Bench press'})]}, NOW, EN);
equal(texts(runningMenu), ['Squat · 1:23 left', 'Next: Bench press', 'Pause', '+30 s', '−15 s', 'Skip', '—', 'Set done'], 'menu: running');
equal(runningMenu.filter(i => i.call).map(i => [i.call.method, i.call.signature, i.call.args]),
    [['Pause', '(s)', ['default']], ['Adjust', '(sx)', ['default', 30 * S]], ['Adjust', '(sx)', ['default', -15 * S]],
        ['Skip', '(s)', ['default']], ['CompleteSet', '(ssa{sv})', ['default', '', {}]]], 'menu: calls');
equal(texts(menuItems({...base, timers: [paused]}, NOW, EN)).slice(0, 5), ['Squat · paused, 1:02 left', 'Resume', '+30 s', '−15 s', 'Skip'], 'menu: paused');
equal(texts(menuItems({...base, timers: [expired]}, NOW, EN)).slice(0, 3), ['Squat · over by 0:12', '+30 s', '—'], 'menu: over');
const ringingMenu = menuItems({...base, timers: [ringing]}, NOW, EN);
equal(texts(ringingMenu).slice(0, 3), ['Squat · over by 0:12, ringing', 'Stop', '+30 s'], 'menu: ringing, Stop first');
equal(ringingMenu.find(i => i.text === 'Stop').call, {method: 'Silence', signature: '(s)', args: ['default']}, 'Stop silences the timer');
const workout = {
    Active: true, Name: 'Push', Exercise: 'Squat', SetIndex: 4, SetsPlanned: 15, SetsDone: 3,
    Plan: [{name: 'Squat', block: 1, sets: 5}, {name: 'Bench press', block: 2, sets: 5}],
};
equal(workoutLines(workout, EN), ['Push · set 4 of 15', 'Next: Squat, set 4 of 5'], 'workout position');
equal(workoutLines({Active: false}, EN), [], 'no workout');
equal(texts(menuItems({...base, workout, timers: [timer({endsAtUsec: NOW + 83 * S, label: 'Squat', next: 'Squat 4/5'})]}, NOW, EN))
    .filter(line => line.startsWith('Next')), ['Next: Squat, set 4 of 5'], 'menu: during a workout, its next line only');
const full = menuItems({
    ...base, followedId: 'b', historyView: 'terminal', error: 'timer "x" does not exist',
    lastSet: {restUsec: 180 * S, restSource: 'plan'}, workout,
    timers: [t('b', {endsAtUsec: NOW + 10 * S}), t('c', {state: 'paused', remainingUsec: 30 * S, label: 'Curl'})],
}, NOW, EN);
equal(texts(full).slice(6), ['Set done', 'Next rest 3:00 (plan)', 'Push · set 4 of 15', 'Next: Squat, set 4 of 5',
    '—', 'c: Curl · paused, 0:30 left', '—', 'Open history', 'timer "x" does not exist'], 'menu: everything');
equal(full.find(i => i.type === 'history').type, 'history', 'history item');
equal(texts(menuItems({...base, timers: [], followedId: null, historyView: 'report'}, NOW, EN)).slice(-2), ['—', 'Open report'],
    'menu: with a browser, the item opens the report');

// The history: the report in the browser when there is one, the terminal otherwise.
equal([[true, true], [true, false], [false, true], [false, false]]
    .map(([restctlInstalled, browserInstalled]) => historyView({restctlInstalled, browserInstalled})),
['report', 'terminal', null, null], 'history view: the browser decides; without restctl, none');
equal(['report', 'terminal'].map(view => historyLabel(view, EN)), ['Open report', 'Open history'], 'history labels');
equal(reportPath('/home/u/.cache'), '/home/u/.cache/restd/report.html', 'the report in the cache');
// The command lines, run by a real shell: the report's makes its folder and hands restctl the path
// as one argument (spaces, quotes, $ and % kept); `restctl` is a stand-in that prints its arguments.
const odd = `${GLib.get_tmp_dir()}/restd pure ${GLib.get_monotonic_time()}/it's $HOME 100%/report.html`;
const bin = GLib.dir_make_tmp('restd-pure-XXXXXX');
GLib.file_set_contents(`${bin}/restctl`, '#!/bin/sh\nprintf "%s|" "$@"\n');
function run(argv) {
    const [, out, , status] = GLib.spawn_sync(null, argv, [`PATH=${bin}:/usr/bin:/bin`], GLib.SpawnFlags.SEARCH_PATH_FROM_ENVP, null);
    return [new TextDecoder().decode(out), status];
}
run(['chmod', '755', `${bin}/restctl`]);
equal(run(reportArgv(odd)), [`report|--output|${odd}|`, 0], 'report command: restctl report --output PATH, as one argument');
equal(GLib.file_test(odd.replace(/\/[^/]*$/, ''), GLib.FileTest.IS_DIR), true, 'report command: the folder made');
// An Exec line, as GIO parses it (field codes: `%%` is `%`), gives back the argv.
const argv = terminalArgv(['my term', '-e']);
equal(argv.slice(0, 4), ['my term', '-e', 'sh', '-c'], 'terminal command: the setting, then sh -c');
const [, parsed] = GLib.shell_parse_argv(execLine(argv).replaceAll('%%', '%'));
equal(parsed, argv, 'Exec line: quoted for GLib\'s parser');
equal(execLine(["it's", '100%', '$x']), "'it'\\''s' '100%%' '$x'", 'Exec line: quotes and %');
equal(run(argv.slice(2)), ['history|', 0], 'terminal command: restctl history (through less when there is one)');
run(['rm', '-rf', bin, odd.slice(0, odd.indexOf('/it'))]);

equal(texts(menuItems({...base, lastSet: {restUsec: 0, restSource: 'none'}, timers: []}, NOW, EN)).slice(-1), ['No rest follows'], 'no rest after the last set');

// Weights as restctl shows them, in the Manager's WeightUnit: 245 lb is kept as 111.13 kg.
equal([weightText(111.13, 'lb', EN), weightText(61.23, 'lb', EN), weightText(28.35, 'lb', EN), weightText(102.5, 'kg', EN),
    weightText(121.04, 'kg', EN, true)], ['245 lb', '135 lb', '62.5 lb', '102.5 kg', '121 kg'], 'weights in either unit');
const COMMA = {...EN, pgettext: (context, text) => context === 'decimal separator' ? ',' : text};
equal(weightText(28.35, 'lb', COMMA), '62,5 lb', 'weights: the language\'s decimal separator');
// The record line of SetRecorded's entry, as restctl set says it: 245 lb × 3 (× 1.1 = 269.5 lb) after 225 lb × 5.
const recordSet = {
    timer: 'default', at_usec: NOW - 20 * S, exercise: 'Squat', reps: 3, weight_kg: 111.13,
    record_heaviest_was_kg: 102.06, record_e1rm_kg: 122.243, record_e1rm_was_kg: 119.07,
};
equal(recordLine(recordSet, 'lb', EN), 'record: Squat 245 lb × 3, heaviest (was 225 lb), estimated 1RM 269.5 lb (was 262.5)',
    'record line in pounds');
equal(recordLine(recordSet, 'kg', EN),
    'record: Squat 111.13 kg × 3, heaviest (was 102.06 kg), estimated 1RM 122.2 kg (was 119.1)', 'record line in kg');
equal(recordLine({exercise: 'Pull-up', reps: 10, record_reps_was: 8}, 'kg', EN), 'record: Pull-up 10 reps, most reps (was 8)',
    'record line without weight');
equal(recordLine({exercise: 'Squat', reps: 5, weight_kg: 100}, 'kg', EN), null, 'no record, no line');
// In the menu, under the heading of the rest the record set started, and not once that rest is started again.
const recordRest = timer({endsAtUsec: NOW + 70 * S, startedAtUsec: recordSet.at_usec, label: 'Squat'});
const records = {default: recordSet};
equal(texts(menuItems({...base, records, weightUnit: 'lb', timers: [recordRest]}, NOW, EN)).slice(0, 2),
    ['Squat · 1:10 left', 'record: Squat 245 lb × 3, heaviest (was 225 lb), estimated 1RM 269.5 lb (was 262.5)'],
    'menu: the record of the set that started the rest');
equal(restRecord({...recordRest, startedAtUsec: NOW}, recordSet, 'lb', EN), null, 'menu: a rest started again has no record');
equal(restRecord(recordRest, undefined, 'lb', EN), null, 'menu: no set recorded, no record');

// Every word a person reads goes through `texts`: in a pseudo-language that marks each text it
// translates, no item of a full menu nor the panel's word is left unmarked (restd's own sentence,
// the error, comes translated by restd; names and times are values put into marked texts).
const PSEUDO = {
    gettext: text => `⟦${text}⟧`,
    ngettext: (text, plural, n) => `⟦${n === 1 ? text : plural}⟧`,
    pgettext: (context, text) => `⟦${text}⟧`,
};
const everything = {
    ...base, followedId: 'default', historyView: 'report', lastSet: {restUsec: 90 * S, restSource: 'plan'}, workout,
    timers: [ringing, t('c', {state: 'paused', remainingUsec: 30 * S, label: 'Curl'})],
};
const unmarked = [
    ...menuItems(everything, NOW, PSEUDO),
    ...menuItems({
        ...everything, lastSet: {restUsec: 0}, workout: null,
        timers: [timer({endsAtUsec: NOW + 83 * S, label: 'Squat', next: 'Bench'})],
    }, NOW, PSEUDO),
    ...menuItems({...base, connected: false, timers: []}, NOW, PSEUDO), ...menuItems({...base, timers: [paused]}, NOW, PSEUDO),
    ...menuItems({...base, records, weightUnit: 'lb', timers: [recordRest]}, NOW, PSEUDO),
    {text: panelText(ringing, null, NOW, PSEUDO).split(' ')[1]}, ...workoutLines({...workout, Name: ''}, PSEUDO).map(text => ({text})),
].filter(i => i.text !== undefined && !/^⟦.*⟧$/u.test(i.text)).map(i => i.text);
equal(unmarked, [], 'pseudo-language: every text of the menu and the panel\'s word are translated');
// A translation may put the values in another order.
equal(fill('%2$s · %1$s, 100%%', 'Squat', '1:23'), '1:23 · Squat, 100%', 'fill: values by position, %% is %');

finish(`pure modules (${dir.get_path()})`);
