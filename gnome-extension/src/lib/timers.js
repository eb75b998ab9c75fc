// restd's timers as plain objects, and which one the panel follows. Pure: no Shell or GI
// imports; the D-Bus layer hands in properties already unpacked to JS values.

/** The D-Bus property of io.restd.Rest1.Timer behind each field of a timer object. */
const FIELDS = {
    Id: 'id',
    Label: 'label',
    Next: 'next',
    State: 'state',
    DurationUSec: 'durationUsec',
    StartedAtUSec: 'startedAtUsec',
    EndsAtUSec: 'endsAtUsec',
    RemainingUSec: 'remainingUsec',
    ExpiredAtUSec: 'expiredAtUsec',
    WarnUSec: 'warnUsec',
    RestSource: 'restSource',
    Ringing: 'ringing',
};

/** An empty timer: what a path has before its properties are known. */
export function emptyTimer() {
    return {
        id: '', label: '', next: '', state: '', durationUsec: 0, startedAtUsec: 0,
        endsAtUsec: 0, remainingUsec: 0, expiredAtUsec: 0, warnUsec: 0, restSource: '', ringing: false,
    };
}

/**
 * A copy of `timer` with the changed D-Bus properties applied (from InterfacesAdded,
 * GetManagedObjects or PropertiesChanged); unknown properties are ignored. uint64 values
 * arrive as numbers: µs since the epoch stay below 2^53 until the year 2255. (Object.assign, not
 * object spread: Qt's JavaScript engine, where the Plasma widget runs this, has no object spread.)
 */
export function withProperties(timer, properties) {
    const updated = Object.assign({}, timer);
    for (const [name, value] of Object.entries(properties)) {
        const field = FIELDS[name];
        if (field === undefined)
            continue;
        if (typeof updated[field] === 'number')
            updated[field] = Number(value);
        else if (typeof updated[field] === 'boolean')
            updated[field] = Boolean(value);
        else
            updated[field] = String(value);
    }
    return updated;
}

/** The id restd calls the timer with an empty id. */
export const DEFAULT_ID = 'default';

// Running timers end in the order of their deadlines; a rest that is over waits for the
// user, so it comes next (the latest first); a paused one does not end until resumed.
const STATE_RANK = {running: 0, expired: 1, paused: 2};

function compareTimers(a, b) {
    const rank = (STATE_RANK[a.state] ?? 3) - (STATE_RANK[b.state] ?? 3);
    if (rank !== 0)
        return rank;
    let order = 0;
    if (a.state === 'running')
        order = a.endsAtUsec - b.endsAtUsec;
    else if (a.state === 'expired')
        order = b.expiredAtUsec - a.expiredAtUsec;
    else if (a.state === 'paused')
        order = a.remainingUsec - b.remainingUsec;
    if (order !== 0 || a.id === b.id)
        return order;
    return a.id < b.id ? -1 : 1;
}

/**
 * The timers in the order the panel prefers them: `default` first, then the one ending
 * soonest (running by deadline, then those over, latest first, then paused by time left),
 * ties by id. Independent of the current time, so the choice does not flap while ticking.
 */
export function orderTimers(timers) {
    return [...timers].filter(t => t.id !== '' && t.state !== '').sort((a, b) => {
        if ((a.id === DEFAULT_ID) !== (b.id === DEFAULT_ID))
            return a.id === DEFAULT_ID ? -1 : 1;
        return compareTimers(a, b);
    });
}

/** The timer the panel follows: `default` if it exists, else the one ending soonest; or null. */
export function chooseTimer(timers) {
    return orderTimers(timers)[0] ?? null;
}
