// What the indicator's menu holds, as a list of plain items the Shell glue turns into
// PopupMenu items one for one. Pure: the state and the time are passed in.

import {clock, fill, isOver, overtimeUsec, remainingUsec, restRecord, timeText} from './format.js';
import {historyLabel} from './history.js';
import {orderTimers} from './timers.js';

const USEC_PER_SEC = 1_000_000;
/** What "+30 s" and "−15 s" send to Manager.Adjust. */
export const ADD_USEC = 30 * USEC_PER_SEC;
export const SUB_USEC = -15 * USEC_PER_SEC;

/**
 * The heading of a timer in the menu: `Squat · 1:23 left`, `Squat · paused, 1:02 left`,
 * `Squat · over by 0:12`, `Squat · over by 0:12, ringing` (in `texts`' language).
 */
export function timerSummary(timer, nowUsec, texts) {
    const name = timer.label || timer.id;
    if (isOver(timer, nowUsec)) {
        const over = clock(Math.floor(overtimeUsec(timer, nowUsec) / USEC_PER_SEC));
        return timer.ringing
            // TRANSLATORS: a timer's name, how long its rest is over; its alarm rings.
            ? fill(texts.gettext('%1$s · over by %2$s, ringing'), name, over)
            // TRANSLATORS: a timer's name, how long its rest is over.
            : fill(texts.gettext('%1$s · over by %2$s'), name, over);
    }
    if (timer.state === 'paused')
        // TRANSLATORS: a timer's name, the time left of its paused rest.
        return fill(texts.gettext('%1$s · paused, %2$s left'), name, timeText(timer, nowUsec));
    // TRANSLATORS: a timer's name, the time left of its rest.
    return fill(texts.gettext('%1$s · %2$s left'), name, clock(Math.ceil(remainingUsec(timer, nowUsec) / USEC_PER_SEC)));
}

/**
 * The workout's position and what comes next, from io.restd.Rest1.Workout's properties
 * (unpacked): [`Push day · set 4 of 15`, `Next: Squat, set 4 of 5`], or [] when none runs.
 */
export function workoutLines(workout, texts) {
    if (!workout || !workout.Active)
        return [];
    const planned = workout.SetsPlanned ?? 0;
    const done = workout.SetsDone ?? 0;
    // TRANSLATORS: the workout's name, the number of the set now, the sets of the whole workout.
    const lines = [fill(texts.gettext('%1$s · set %2$d of %3$d'), workout.Name || texts.gettext('Workout'),
        Math.min(done + 1, planned), planned)];
    if (workout.Exercise) {
        const entry = (workout.Plan ?? []).find(e => e.name === workout.Exercise);
        lines.push(entry && entry.sets
            // TRANSLATORS: the next set: its exercise, its number, the sets of that exercise.
            ? fill(texts.gettext('Next: %1$s, set %2$d of %3$d'), workout.Exercise, workout.SetIndex, entry.sets)
            // TRANSLATORS: the next set: its exercise and its number.
            : fill(texts.gettext('Next: %1$s, set %2$d'), workout.Exercise, workout.SetIndex));
    }
    return lines;
}

/** A Manager method call: the method's name and its arguments as GVariant type and values. */
function call(method, signature, args) {
    return {method, signature, args};
}

/**
 * The menu, top to bottom. Items: {type: 'heading'|'info'|'error'|'separator'} with `text`,
 * {type: 'action', text, call: {method, signature, args}} for a Manager method, and
 * {type: 'history', text} for the history ("Open report" or "Open history", lib/history.js; only
 * when restctl is found).
 *
 * `state`: {connected, timers, followedId, workout, lastSet: {restUsec, restSource} | null,
 * records: {timer id: the SetRecorded entry of its last set}, weightUnit: 'kg' | 'lb',
 * error: string | null, historyView: 'report' | 'terminal' | null}; `texts`: the language
 * (format.js). restd's own sentences (`error`) come in restd's language already.
 */
export function menuItems(state, nowUsec, texts) {
    const items = [];
    if (!state.connected) {
        items.push({type: 'info', text: texts.gettext('restd is not running')});
        // E.g. the interface file is missing: the reason must show even without restd.
        if (state.error)
            items.push({type: 'error', text: state.error});
        return items;
    }
    const ordered = orderTimers(state.timers);
    const timer = ordered.find(t => t.id === state.followedId) ?? null;
    if (timer) {
        items.push({type: 'heading', text: timerSummary(timer, nowUsec, texts)});
        const record = restRecord(timer, state.records?.[timer.id], state.weightUnit, texts);
        if (record)
            items.push({type: 'info', text: record});
        // During a workout its own lines below say what comes next.
        if (timer.next && workoutLines(state.workout, texts).length === 0)
            // TRANSLATORS: what comes after the rest (the timer's "next" text).
            items.push({type: 'info', text: fill(texts.gettext('Next: %1$s'), timer.next)});
        const over = isOver(timer, nowUsec);
        // First, where the pointer lands: the alarm is what the person wants gone.
        if (timer.ringing)
            // TRANSLATORS: a menu item: stop the ringing alarm.
            items.push({type: 'action', text: texts.pgettext('menu item', 'Stop'), call: call('Silence', '(s)', [timer.id])});
        if (timer.state === 'running' && !over)
            items.push({type: 'action', text: texts.pgettext('menu item', 'Pause'), call: call('Pause', '(s)', [timer.id])});
        if (timer.state === 'paused')
            items.push({type: 'action', text: texts.pgettext('menu item', 'Resume'), call: call('Resume', '(s)', [timer.id])});
        // TRANSLATORS: a menu item: 30 seconds more rest.
        items.push({type: 'action', text: texts.pgettext('menu item', '+30 s'), call: call('Adjust', '(sx)', [timer.id, ADD_USEC])});
        if (!over) {
            // TRANSLATORS: a menu item: 15 seconds less rest.
            items.push({type: 'action', text: texts.pgettext('menu item', '−15 s'), call: call('Adjust', '(sx)', [timer.id, SUB_USEC])});
            // TRANSLATORS: a menu item: end the rest now.
            items.push({type: 'action', text: texts.pgettext('menu item', 'Skip'), call: call('Skip', '(s)', [timer.id])});
        }
    } else {
        items.push({type: 'info', text: texts.gettext('No rest running')});
    }
    items.push({type: 'separator'});
    // A set on the followed timer (default when there is none), with its rest chosen by restd.
    items.push({
        // TRANSLATORS: a menu item: the set is finished (its rest starts).
        type: 'action', text: texts.pgettext('menu item', 'Set done'),
        call: call('CompleteSet', '(ssa{sv})', [timer ? timer.id : '', '', {}]),
    });
    if (state.lastSet) {
        const rest = state.lastSet.restUsec > 0
            // TRANSLATORS: the rest the finished set started, and the rule that chose it (restd's
            // rest_source word, e.g. "plan", "exercise", "default", as restctl history shows it).
            ? fill(texts.gettext('Next rest %1$s (%2$s)'), clock(Math.round(state.lastSet.restUsec / USEC_PER_SEC)),
                state.lastSet.restSource)
            : texts.gettext('No rest follows');
        items.push({type: 'info', text: rest});
    }
    for (const line of workoutLines(state.workout, texts))
        items.push({type: 'info', text: line});
    const others = ordered.filter(t => t !== timer);
    if (others.length > 0) {
        items.push({type: 'separator'});
        for (const other of others)
            // TRANSLATORS: another timer in the menu: its id, then its heading.
            items.push({type: 'info', text: fill(texts.gettext('%1$s: %2$s'), other.id, timerSummary(other, nowUsec, texts))});
    }
    if (state.historyView) {
        items.push({type: 'separator'});
        items.push({type: 'history', text: historyLabel(state.historyView, texts)});
    }
    if (state.error)
        items.push({type: 'error', text: state.error});
    return items;
}
