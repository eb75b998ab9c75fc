// What the indicator's menu holds, as a list of plain items the Shell glue turns into
// PopupMenu items one for one. Pure: the state and the time are passed in.

import {clock, isOver, overtimeUsec, remainingUsec, timeText} from './format.js';
import {historyLabel} from './history.js';
import {orderTimers} from './timers.js';

const USEC_PER_SEC = 1_000_000;
/** What "+30 s" and "−15 s" send to Manager.Adjust. */
export const ADD_USEC = 30 * USEC_PER_SEC;
export const SUB_USEC = -15 * USEC_PER_SEC;

/**
 * The heading of a timer in the menu: `Squat · 1:23 left`, `paused · 1:02 left`, `over by 0:12`,
 * `over by 0:12, ringing`.
 */
export function timerSummary(timer, nowUsec) {
    const name = timer.label || timer.id;
    let time;
    if (isOver(timer, nowUsec))
        time = `over by ${clock(Math.floor(overtimeUsec(timer, nowUsec) / USEC_PER_SEC))}${timer.ringing ? ', ringing' : ''}`;
    else if (timer.state === 'paused')
        time = `paused, ${timeText(timer, nowUsec)} left`;
    else
        time = `${clock(Math.ceil(remainingUsec(timer, nowUsec) / USEC_PER_SEC))} left`;
    return `${name} · ${time}`;
}

/**
 * The workout's position and what comes next, from io.restd.Rest1.Workout's properties
 * (unpacked): [`Push day · set 4 of 15`, `Next: Squat, set 4 of 5`], or [] when none runs.
 */
export function workoutLines(workout) {
    if (!workout || !workout.Active)
        return [];
    const planned = workout.SetsPlanned ?? 0;
    const done = workout.SetsDone ?? 0;
    const lines = [`${workout.Name || 'Workout'} · set ${Math.min(done + 1, planned)} of ${planned}`];
    if (workout.Exercise) {
        const entry = (workout.Plan ?? []).find(e => e.name === workout.Exercise);
        const of = entry && entry.sets ? ` of ${entry.sets}` : '';
        lines.push(`Next: ${workout.Exercise}, set ${workout.SetIndex}${of}`);
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
 * error: string | null, historyView: 'report' | 'terminal' | null}.
 */
export function menuItems(state, nowUsec) {
    const items = [];
    if (!state.connected) {
        items.push({type: 'info', text: 'restd is not running'});
        // E.g. the interface file is missing: the reason must show even without restd.
        if (state.error)
            items.push({type: 'error', text: state.error});
        return items;
    }
    const ordered = orderTimers(state.timers);
    const timer = ordered.find(t => t.id === state.followedId) ?? null;
    if (timer) {
        items.push({type: 'heading', text: timerSummary(timer, nowUsec)});
        // During a workout its own lines below say what comes next.
        if (timer.next && workoutLines(state.workout).length === 0)
            items.push({type: 'info', text: `Next: ${timer.next}`});
        const over = isOver(timer, nowUsec);
        // First, where the pointer lands: the alarm is what the person wants gone.
        if (timer.ringing)
            items.push({type: 'action', text: 'Stop', call: call('Silence', '(s)', [timer.id])});
        if (timer.state === 'running' && !over)
            items.push({type: 'action', text: 'Pause', call: call('Pause', '(s)', [timer.id])});
        if (timer.state === 'paused')
            items.push({type: 'action', text: 'Resume', call: call('Resume', '(s)', [timer.id])});
        items.push({type: 'action', text: '+30 s', call: call('Adjust', '(sx)', [timer.id, ADD_USEC])});
        if (!over) {
            items.push({type: 'action', text: '−15 s', call: call('Adjust', '(sx)', [timer.id, SUB_USEC])});
            items.push({type: 'action', text: 'Skip', call: call('Skip', '(s)', [timer.id])});
        }
    } else {
        items.push({type: 'info', text: 'No rest running'});
    }
    items.push({type: 'separator'});
    // A set on the followed timer (default when there is none), with its rest chosen by restd.
    items.push({
        type: 'action', text: 'Set done',
        call: call('CompleteSet', '(ssa{sv})', [timer ? timer.id : '', '', {}]),
    });
    if (state.lastSet) {
        const rest = state.lastSet.restUsec > 0
            ? `Next rest ${clock(Math.round(state.lastSet.restUsec / USEC_PER_SEC))} (${state.lastSet.restSource})`
            : 'No rest follows';
        items.push({type: 'info', text: rest});
    }
    for (const line of workoutLines(state.workout))
        items.push({type: 'info', text: line});
    const others = ordered.filter(t => t !== timer);
    if (others.length > 0) {
        items.push({type: 'separator'});
        for (const other of others)
            items.push({type: 'info', text: `${other.id}: ${timerSummary(other, nowUsec)}`});
    }
    if (state.historyView) {
        items.push({type: 'separator'});
        items.push({type: 'history', text: historyLabel(state.historyView)});
    }
    if (state.error)
        items.push({type: 'error', text: state.error});
    return items;
}
