// The Plasma widget's logic as plain data: restd's replies as timers, which timer the panel shows,
// what it says and what the popup offers. Pure: no Qt or Plasma imports and every time passed in
// (µs since the epoch), so that `gjs -m plasma/tests/pure.test.js` tests it alone. The panel's
// words and the choice of timer are the GNOME extension's own (format.mjs and timers.mjs are its
// lib/format.js and lib/timers.js), so both desktops show the same rest the same way. Qt's
// JavaScript engine has no object spread: copies are made with Object.assign.

import {reportArgv, reportPath} from './history.mjs';
import {isOver, msUntilNextChange, panelIcon, panelText, timeText} from './format.mjs';
import {DEFAULT_ID, chooseTimer, emptyTimer, orderTimers, withProperties} from './timers.mjs';

export {IDLE_ICON} from './format.mjs';

const USEC_PER_SEC = 1_000_000;
const TIMER_PATH_PREFIX = '/io/restd/Rest1/timer/';
const TIMER_IFACE = 'io.restd.Rest1.Timer';
/** What "+30 s" and "−15 s" send to Manager.Adjust (as the GNOME menu). */
export const ADD_USEC = 30 * USEC_PER_SEC;
export const SUB_USEC = -15 * USEC_PER_SEC;

/**
 * A value from Plasma's D-Bus module as plain JS: its replies wrap each basic value in a typed
 * object (`value` holds it, toString() writes it), containers are arrays and objects of those.
 */
export function plain(value) {
    if (value === null || value === undefined || typeof value !== 'object')
        return value;
    if (Array.isArray(value))
        return value.map(plain);
    if (Object.getPrototypeOf(value) !== Object.prototype && 'value' in value) {
        const inner = value.value;
        return typeof inner === 'number' || typeof inner === 'boolean' ? inner : String(value);
    }
    const object = {};
    for (const [key, item] of Object.entries(value))
        object[key] = plain(item);
    return object;
}

/** The timers in a GetManagedObjects reply ({path: {interface: {property: value}}}), by path. */
export function timersFromObjects(objects) {
    const timers = {};
    for (const [path, interfaces] of Object.entries(objects ?? {})) {
        const timer = timerFromInterfaces(path, interfaces);
        if (timer)
            timers[path] = timer;
    }
    return timers;
}

/** The timer an InterfacesAdded signal (or one object of GetManagedObjects) brings, or null. */
export function timerFromInterfaces(path, interfaces) {
    if (!path.startsWith(TIMER_PATH_PREFIX) || !interfaces || !interfaces[TIMER_IFACE])
        return null;
    return withProperties(emptyTimer(), interfaces[TIMER_IFACE]);
}

/** Whether an InterfacesRemoved signal's interfaces take a timer away. */
export function removesTimer(path, interfaces) {
    return path.startsWith(TIMER_PATH_PREFIX) && (interfaces ?? []).includes(TIMER_IFACE);
}

export {withProperties};

/** The settings' ways of choosing the timer (contents/config/main.xml's `follow`). */
export const FOLLOW_AUTOMATIC = 0; // `default`, else the one ending soonest: as GNOME
export const FOLLOW_LAST_CHANGED = 1;
export const FOLLOW_ID = 2;

/**
 * The timer the panel shows: with FOLLOW_LAST_CHANGED the one whose properties changed last
 * (`lastChangedId`) while it exists, with FOLLOW_ID the timer `timerId`; otherwise, and when that
 * timer does not exist, the GNOME extension's choice. Null when no timer exists.
 */
export function shownTimer(timers, follow, timerId, lastChangedId) {
    const ordered = orderTimers(timers);
    let wanted = '';
    if (follow === FOLLOW_ID)
        wanted = timerId || DEFAULT_ID;
    else if (follow === FOLLOW_LAST_CHANGED)
        wanted = lastChangedId;
    return ordered.find(t => wanted && t.id === wanted) ?? chooseTimer(timers);
}

/** The id of a timer that differs between two path → timer maps (the last changed), or ''. */
export function changedTimerId(before, after) {
    for (const [path, timer] of Object.entries(after)) {
        if (JSON.stringify(before[path]) !== JSON.stringify(timer))
            return timer.id;
    }
    return '';
}

/**
 * The panel's text, the GNOME label's words: `1:23 Squat ♥128 3/5`, `+0:12 ringing Squat`; the
 * exercise and heart rate only as the settings allow. `texts`: the words' language (format.mjs's
 * SOURCE_TEXTS, or main.qml's from the widget's i18n()).
 */
export function compactText(timer, live, nowUsec, texts, {showExercise = true, showHeartRate = true} = {}) {
    const shown = showExercise ? timer : Object.assign({}, timer, {label: ''});
    let fields = live;
    if (live && !showHeartRate) {
        fields = Object.assign({}, live);
        delete fields.heart_rate;
    }
    return panelText(shown, fields, nowUsec, texts);
}

/** The text of a vertical panel: the time alone (the icon before it says paused or ringing). */
export function verticalText(timer, nowUsec) {
    return timeText(timer, nowUsec);
}

/**
 * The icon before the panel's text: the pause mark of a paused timer, a loudspeaker while the
 * alarm rings, else null.
 */
export function compactIcon(timer) {
    return panelIcon(timer);
}

/**
 * Whether the shown timer has run out by the local count while restd's last word is still
 * `running`: without signals (Plasma 6.3) the widget then reads restd again, to learn that the
 * rest is over and rings, rather than wait for the slow interval.
 */
export function awaitsEnd(timer, nowUsec) {
    return timer !== null && timer.state === 'running' && isOver(timer, nowUsec);
}

/**
 * How the panel colours the text: 'over', 'paused', 'warning' (from the timer's pre-alert on) or
 * 'running'; the QML maps each to a Kirigami theme colour.
 */
export function emphasis(timer, nowUsec) {
    if (isOver(timer, nowUsec))
        return 'over';
    if (timer.state === 'paused')
        return 'paused';
    const left = Math.max(0, timer.endsAtUsec - nowUsec);
    return timer.warnUsec > 0 && left <= timer.warnUsec ? 'warning' : 'running';
}

/** Milliseconds until the panel's text changes, or -1 when it cannot change by itself. */
export function msUntilRedraw(timer, nowUsec) {
    return timer ? msUntilNextChange(timer, nowUsec) : -1;
}

/**
 * The popup's heading of a timer, as parts the QML puts into words: {name, kind, time} with
 * kind 'left', 'paused', 'over' or 'ringing' (`Squat · 1:23 left`, `paused, 1:02 left`,
 * `over by 0:12`, `over by 0:12, ringing`: the GNOME menu's words).
 */
export function summary(timer, nowUsec) {
    const name = timer.label || timer.id;
    if (isOver(timer, nowUsec))
        return {name, kind: timer.ringing ? 'ringing' : 'over', time: timeText(timer, nowUsec).slice(1)};
    return {name, kind: timer.state === 'paused' ? 'paused' : 'left', time: timeText(timer, nowUsec)};
}

/**
 * The popup's buttons for `timer` (null: none runs), each {action, method, signature, args}: a
 * Manager method call (the arguments' signature as a structure: Plasma's D-Bus module encodes the
 * argument list as one). `action` names the button ('stop', 'pause', 'resume', 'add', 'subtract',
 * 'skip', 'setDone'); "Stop" (Silence) comes first while the alarm rings, as in GNOME's menu;
 * "Set done" goes on the shown timer, `default` when there is none.
 */
export function actions(timer, nowUsec) {
    const list = [];
    const call = (action, method, signature, args) => list.push({action, method, signature, args});
    if (timer) {
        const over = isOver(timer, nowUsec);
        if (timer.ringing)
            call('stop', 'Silence', '(s)', [timer.id]);
        if (timer.state === 'running' && !over)
            call('pause', 'Pause', '(s)', [timer.id]);
        if (timer.state === 'paused')
            call('resume', 'Resume', '(s)', [timer.id]);
        call('add', 'Adjust', '(sx)', [timer.id, ADD_USEC]);
        if (!over) {
            call('subtract', 'Adjust', '(sx)', [timer.id, SUB_USEC]);
            call('skip', 'Skip', '(s)', [timer.id]);
        }
    }
    call('setDone', 'CompleteSet', '(ssa{sv})', [timer ? timer.id : '', '', {}]);
    return list;
}

/**
 * The workout's position and next set from io.restd.Rest1.Workout's properties, or null when
 * none runs: {name, set, planned, exercise, setIndex, exerciseSets} (exercise '' when none is
 * next, exerciseSets 0 when the plan does not say).
 */
export function workoutInfo(workout) {
    if (!workout || !workout.Active)
        return null;
    const planned = workout.SetsPlanned ?? 0;
    const done = workout.SetsDone ?? 0;
    const entry = (workout.Plan ?? []).find(e => e.name === workout.Exercise);
    return {
        name: workout.Name || '', set: Math.min(done + 1, planned), planned,
        exercise: workout.Exercise || '', setIndex: workout.SetIndex ?? 0,
        exerciseSets: entry && entry.sets ? entry.sets : 0,
    };
}

/** The other timers than the shown one, for the popup's list, in the panel's order. */
export function otherTimers(timers, shown) {
    return orderTimers(timers).filter(t => !shown || t.id !== shown.id);
}

/** `arg` single-quoted for sh (a quote inside as '\''). Qt 6.8's engine has no replaceAll. */
function shellQuote(arg) {
    return `'${arg.replace(/'/g, "'\\''")}'`;
}

/**
 * "Open report" as in GNOME: the file (`cacheDir` is $XDG_CACHE_HOME) and the command that writes
 * it (`restctl report`, its folder made first), as one shell line for Plasma's executable engine.
 */
export function reportCommand(cacheDir) {
    const path = reportPath(cacheDir);
    return {path, command: reportArgv(path).map(shellQuote).join(' ')};
}
