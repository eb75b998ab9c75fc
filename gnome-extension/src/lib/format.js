// What the panel label says, and when it next changes. Pure: no Shell or GI imports, every
// time is passed in (µs since the epoch, as restd's properties), so gjs -m tests it alone.

const USEC_PER_SEC = 1_000_000;

/**
 * The words a person reads come from a `texts` object, {gettext(text), ngettext(text, plural, n),
 * pgettext(context, text)}: the extension's gettext domain in the Shell, the widget's i18n() in
 * Plasma, SOURCE_TEXTS (the English of the sources) in the tests. Every text is a literal at one
 * of those calls, where `make pot` finds it (xgettext's JavaScript mode); values go in by position
 * (`%1$s`, fill()), so that a translation may reorder them.
 */
export const SOURCE_TEXTS = {
    gettext: text => text,
    ngettext: (text, plural, n) => n === 1 ? text : plural,
    pgettext: (context, text) => text,
};

/** `format` with `%1$s`, `%2$d`… replaced by the values at those positions, and `%%` by `%`. */
export function fill(format, ...values) {
    return format.replace(/%(?:(\d+)\$[sd]|%)/g, (directive, position) =>
        position === undefined ? '%' : String(values[Number(position) - 1] ?? directive));
}

/** `m:ss` below one hour, `h:mm:ss` from one hour on (as restctl writes times). */
export function clock(seconds) {
    const hours = Math.floor(seconds / 3600);
    const minutes = Math.floor(seconds / 60) % 60;
    const secs = seconds % 60;
    const two = n => n < 10 ? `0${n}` : `${n}`;
    if (hours > 0)
        return `${hours}:${two(minutes)}:${two(secs)}`;
    return `${Math.floor(seconds / 60)}:${two(secs)}`;
}

/**
 * Time left of a timer at `nowUsec`, in µs (never negative). Running: counted down from
 * EndsAtUSec (restd sends no per-second signal); paused: the frozen RemainingUSec; over: 0.
 */
export function remainingUsec(timer, nowUsec) {
    switch (timer.state) {
    case 'running':
        return Math.max(0, timer.endsAtUsec - nowUsec);
    case 'paused':
        return timer.remainingUsec;
    default:
        return 0;
    }
}

/** Time since a timer ran out, in µs (0 unless over). */
export function overtimeUsec(timer, nowUsec) {
    if (timer.state === 'running' && timer.endsAtUsec > 0 && nowUsec >= timer.endsAtUsec)
        return nowUsec - timer.endsAtUsec;
    if (timer.state === 'expired' && timer.expiredAtUsec > 0)
        return Math.max(0, nowUsec - timer.expiredAtUsec);
    return 0;
}

/** Whether a timer has run out at `nowUsec` (restd may not have said so yet). */
export function isOver(timer, nowUsec) {
    return timer.state === 'expired' ||
        (timer.state === 'running' && timer.endsAtUsec > 0 && nowUsec >= timer.endsAtUsec);
}

/**
 * The time a timer shows: rounded up while counting down (a fresh 90 s rest reads 1:30,
 * 0:00 appears only once nothing is left), overtime rounded down with a `+` (+0:01 after a
 * full second), as `restctl watch` does.
 */
export function timeText(timer, nowUsec) {
    if (isOver(timer, nowUsec))
        return `+${clock(Math.floor(overtimeUsec(timer, nowUsec) / USEC_PER_SEC))}`;
    return clock(Math.ceil(remainingUsec(timer, nowUsec) / USEC_PER_SEC));
}

/**
 * Milliseconds until the shown time changes, or -1 when it cannot change by itself (paused):
 * the label is redrawn on the second of the timer's own boundaries, not of the wall clock.
 */
export function msUntilNextChange(timer, nowUsec) {
    if (timer.state === 'paused')
        return -1;
    let usec;
    if (isOver(timer, nowUsec)) {
        if (timer.state === 'expired' && !(timer.expiredAtUsec > 0))
            return -1;
        const over = overtimeUsec(timer, nowUsec);
        usec = USEC_PER_SEC - over % USEC_PER_SEC;
    } else {
        const left = remainingUsec(timer, nowUsec);
        usec = left % USEC_PER_SEC || USEC_PER_SEC;
    }
    // Round up so that the redraw lands just after the boundary, never just before it.
    return Math.ceil(usec / 1000);
}

// Columns a code point takes in the panel's proportional font are not fixed, but CJK and
// emoji are about two Latin letters wide; marks (variation selectors among them), joiners and
// tags take none.
const ZERO_WIDTH = /^[\p{M}\u200B-\u200F\u2060\u{E0000}-\u{E007F}]$/u;
const WIDE = /^[\p{Extended_Pictographic}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303F\uFF00-\uFF60\uFFE0-\uFFE6]$/u;

/** Columns the code point `ch` takes: a wide one two, a combining one none. */
function columns(ch) {
    if (ZERO_WIDTH.test(ch))
        return 0;
    return WIDE.test(ch) ? 2 : 1;
}

/** Columns `text` takes: wide characters count two, combining ones none. */
export function displayWidth(text) {
    let width = 0;
    for (const ch of text)
        width += columns(ch);
    return width;
}

/**
 * `text` cut to at most `maxColumns` columns with `…` at the end when cut. Cuts between
 * code points only (never inside a surrogate pair), keeps combining marks and joiners with
 * the character before them, and drops a joiner left dangling at the end.
 */
export function truncate(text, maxColumns) {
    if (displayWidth(text) <= maxColumns)
        return text;
    const chars = Array.from(text);
    let width = 0;
    let end = 0;
    for (let i = 0; i < chars.length; i++) {
        const w = columns(chars[i]);
        if (width + w > maxColumns - 1)
            break;
        width += w;
        end = i + 1;
    }
    // A zero-width character after the cut belongs to the last character kept.
    while (end < chars.length && ZERO_WIDTH.test(chars[end]) && chars[end] !== '\u200D')
        end++;
    while (end > 0 && chars[end - 1] === '\u200D')
        end--;
    // A regular expression, not trimEnd(): Qt 6.8's JavaScript engine (the Plasma widget's) lacks it.
    return `${chars.slice(0, end).join('').replace(/\s+$/u, '')}…`;
}

/** The longest label the panel shows, in columns (the menu shows it whole). */
export const LABEL_COLUMNS = 24;

/**
 * The panel text: `1:23 Squat ♥128 3/5` — time, label (cut to LABEL_COLUMNS), heart rate and
 * set progress when the live activity has them. Paused: `1:02 Squat` after panelIcon's pause
 * mark; over: `+0:12 Squat`; over and its alarm ringing: `+0:12 ringing Squat`, after the
 * loudspeaker (the status bars' words). `live` holds restd's Live.Fields (heart_rate,
 * progress_done, progress_total), or null; `texts` the words' language (SOURCE_TEXTS).
 */
export function panelText(timer, live, nowUsec, texts) {
    const parts = [timeText(timer, nowUsec)];
    if (timer.ringing)
        // TRANSLATORS: in the panel after the overtime, while the rest's alarm rings: "+0:12 ringing Squat".
        parts.push(texts.gettext('ringing'));
    if (timer.label)
        parts.push(truncate(timer.label, LABEL_COLUMNS));
    parts.push(...liveParts(live));
    return parts.join(' ');
}

/**
 * The symbolic icon before the panel text, from the icon theme (a font may lack a glyph such as
 * ⏸, which then shows as a box): the pause mark of a paused timer, a loudspeaker while the
 * rest's alarm rings, else null.
 */
export function panelIcon(timer) {
    if (timer.ringing)
        return 'audio-volume-high-symbolic';
    return timer.state === 'paused' ? 'media-playback-pause-symbolic' : null;
}

/** The panel's icon when no timer exists (with show-idle-icon). */
export const IDLE_ICON = 'alarm-symbolic';

/** `♥128` and `3/5` from the live fields, each only when present and valid. */
export function liveParts(live) {
    const parts = [];
    if (!live)
        return parts;
    if (Number.isInteger(live.heart_rate) && live.heart_rate > 0)
        parts.push(`♥${live.heart_rate}`);
    if (Number.isInteger(live.progress_done) && Number.isInteger(live.progress_total) &&
        live.progress_total > 0)
        parts.push(`${live.progress_done}/${live.progress_total}`);
    return parts;
}

/** The seconds before the end that the label marks as the last ones (style class). */
export const LAST_SECONDS_USEC = 10 * USEC_PER_SEC;

/**
 * Style classes for the label: `restd-running`, `restd-paused` or `restd-over` (with
 * `restd-ringing` while its alarm rings), plus `restd-warning` from the timer's pre-alert
 * (WarnUSec) on and `restd-last-seconds` in the final ten seconds, so those moments show by
 * colour, not only by text.
 */
export function styleClasses(timer, nowUsec) {
    if (isOver(timer, nowUsec))
        return timer.ringing ? ['restd-over', 'restd-ringing'] : ['restd-over'];
    if (timer.state === 'paused')
        return ['restd-paused'];
    const classes = ['restd-running'];
    const left = remainingUsec(timer, nowUsec);
    if (timer.warnUsec > 0 && left <= timer.warnUsec)
        classes.push('restd-warning');
    if (left <= LAST_SECONDS_USEC)
        classes.push('restd-last-seconds');
    return classes;
}

/** Every class styleClasses can return (the indicator removes them before adding). */
export const ALL_STYLE_CLASSES = [
    'restd-running', 'restd-paused', 'restd-over', 'restd-ringing', 'restd-warning', 'restd-last-seconds',
];

/** Kilograms in a pound, exactly (the international pound of 1959). */
const KG_PER_LB = 0.45359237;

/**
 * A weight kept in kg as restctl shows it, without its unit: in `unit` (the Manager's WeightUnit,
 * 'kg' or 'lb'), kilograms to 0.01 kg (0.1 kg with `tenths`, for an estimate), pounds to 0.1 lb,
 * no needless ".0", the language's decimal separator: "102.5", "245", "269,5".
 */
export function weightNumber(kg, unit, texts, tenths = false) {
    const value = unit === 'lb'
        ? Math.round(kg / KG_PER_LB * 10) / 10
        : Math.round(kg * (tenths ? 10 : 100)) / (tenths ? 10 : 100);
    // TRANSLATORS: what separates a number's fraction, as in 62.5 kg.
    return String(value).replace('.', texts.pgettext('decimal separator', '.'));
}

/** `weightNumber` with the unit's symbol: "100 kg", "245 lb". */
export function weightText(kg, unit, texts, tenths = false) {
    const symbol = unit === 'lb'
        // TRANSLATORS: the symbol of pounds, after a weight ("225 lb") or heading a column.
        ? texts.pgettext('unit of weight', 'lb')
        // TRANSLATORS: the symbol of kilograms, after a weight ("100 kg") or heading a column.
        : texts.pgettext('unit of weight', 'kg');
    return `${weightNumber(kg, unit, texts, tenths)} ${symbol}`;
}

/**
 * The record line of a set, as restctl set and "Rest over" say it, from History.SetRecorded's
 * entry (unpacked): `record: Squat 245 lb × 3, heaviest (was 225 lb), estimated 1RM 269.5 lb
 * (was 262.5)`, weights in `unit`; null when the set beat no record.
 */
export function recordLine(set, unit, texts) {
    const weight = kg => weightText(kg, unit, texts);
    const parts = [];
    if (set.record_heaviest_was_kg !== undefined && set.weight_kg !== undefined)
        // TRANSLATORS: a record beaten, in "record: Squat 105 kg × 3, heaviest (was 100 kg)".
        parts.push(fill(texts.gettext('heaviest (was %1$s)'), weight(set.record_heaviest_was_kg)));
    if (set.record_reps_was !== undefined && set.reps !== undefined) {
        parts.push(set.weight_kg !== undefined
            // TRANSLATORS: a record beaten: "most reps at 60 kg (was 15)".
            ? fill(texts.gettext('most reps at %1$s (was %2$d)'), weight(set.weight_kg), set.record_reps_was)
            // TRANSLATORS: a record beaten by a set without weight: "most reps (was 8)".
            : fill(texts.gettext('most reps (was %1$d)'), set.record_reps_was));
    }
    if (set.record_e1rm_kg !== undefined && set.record_e1rm_was_kg !== undefined) {
        // TRANSLATORS: a record beaten: "estimated 1RM 121 kg (was 118)", Epley's estimated one-rep maximum.
        parts.push(fill(texts.gettext('estimated 1RM %1$s (was %2$s)'), weightText(set.record_e1rm_kg, unit, texts, true),
            weightNumber(set.record_e1rm_was_kg, unit, texts, true)));
    }
    if (parts.length === 0)
        return null;
    let what = set.exercise ?? '';
    if (set.weight_kg !== undefined)
        what += ` ${weight(set.weight_kg)}${set.reps !== undefined ? ` × ${set.reps}` : ''}`;
    else if (set.reps !== undefined)
        // TRANSLATORS: a set without weight in a record line: "record: Pull-up 10 reps, …".
        what += ` ${fill(texts.ngettext('%1$d rep', '%1$d reps', set.reps), set.reps)}`;
    // TRANSLATORS: under restctl set and in "Rest over": "record: Squat 110 kg × 3, estimated 1RM 121 kg (was 118)".
    return fill(texts.gettext('record: %1$s'), [what, ...parts].join(', '));
}

/**
 * The record line of the set that started `timer`'s rest, or null: `set` is the SetRecorded
 * entry of the last set recorded on that timer, which counts while the rest it started runs on
 * (restd starts it at the set's instant), not for a rest started again or otherwise.
 */
export function restRecord(timer, set, unit, texts) {
    if (!set || set.at_usec !== timer.startedAtUsec)
        return null;
    return recordLine(set, unit ?? 'kg', texts);
}
