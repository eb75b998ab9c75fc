// restd's rest in Plasma's panel: the countdown as the GNOME label words it, and a popup with the
// timer's buttons. The countdown is computed here from the timer's wall-clock end (restd sends no
// per-second signal) and redrawn once per second of the timer's own, only while a timer counts.
import QtQuick
import org.kde.plasma.plasmoid
import org.kde.plasma.core as PlasmaCore

import "../code/widget.mjs" as Widget

PlasmoidItem {
    id: root

    readonly property alias client: client
    /** The present time in µs since the epoch, moved on by `tick` (and on every change of state). */
    property real nowUsec: Date.now() * 1000
    /** The timer the panel shows (widget.mjs's shownTimer), or null. */
    readonly property var timer: Widget.shownTimer(Object.values(client.timers), Plasmoid.configuration.follow,
        Plasmoid.configuration.timerId, client.lastChangedId)
    /**
     * The words of the modules shared with the GNOME extension (format.mjs), through the widget's
     * own catalog: KDE's i18n() in the domain plasma_applet_io.restd.rest, restd's po/LANG.po.
     */
    readonly property var texts: ({
        gettext: text => root.kept(undefined, text),
        // i18np puts the count in for %1 itself: "%1$d reps" comes back "10$d reps".
        ngettext: (text, plural, n) => i18np(text, plural, n).replace(/(\d)\$[sd]/, "$1"),
        pgettext: (context, text) => root.kept(context, text),
    })

    /**
     * `text` (in `context`, if not undefined) from the catalog, its own `%1$s`, `%2$d`…
     * placeholders given back as themselves ("%1", "%2": KDE's idiom against
     * I18N_ARGUMENT_MISSING), for format.mjs's fill() to put the values in.
     */
    function kept(context, text) {
        const highest = Math.max(0, ...(text.match(/%\d\$[sd]/g) ?? []).map(p => Number(p[1])));
        if (context === undefined) {
            switch (highest) {
            case 0: return i18n(text);
            case 1: return i18n(text, "%1");
            case 2: return i18n(text, "%1", "%2");
            default: return i18n(text, "%1", "%2", "%3");
            }
        }
        switch (highest) {
        case 0: return i18nc(context, text);
        case 1: return i18nc(context, text, "%1");
        case 2: return i18nc(context, text, "%1", "%2");
        default: return i18nc(context, text, "%1", "%2", "%3");
        }
    }
    readonly property string compactText: timer ? Widget.compactText(timer, client.live, nowUsec, texts, {
        showExercise: Plasmoid.configuration.showExercise, showHeartRate: Plasmoid.configuration.showHeartRate,
    }) : ""
    /** The time alone, for a vertical panel. */
    readonly property string timeText: timer ? Widget.verticalText(timer, nowUsec) : ""
    readonly property string emphasis: timer ? Widget.emphasis(timer, nowUsec) : ""
    readonly property string compactIcon: timer ? (Widget.compactIcon(timer) ?? "") : Widget.IDLE_ICON

    Plasmoid.icon: Widget.IDLE_ICON
    Plasmoid.status: timer ? PlasmaCore.Types.ActiveStatus : PlasmaCore.Types.PassiveStatus
    toolTipMainText: i18n("Rest timer")
    toolTipSubText: !client.connected ? i18n("restd is not running") : timer ? compactText : i18n("No rest running")

    compactRepresentation: CompactRepresentation {}
    fullRepresentation: FullRepresentation {}

    RestdClient {
        id: client
        timerShown: root.timer !== null
        onTimersChanged: root.nowUsec = Date.now() * 1000
    }

    // One wake-up per change of the shown time, on the timer's own second boundaries.
    Timer {
        id: tick
        repeat: true
        running: root.timer !== null && interval > 0
        interval: root.timer ? Widget.msUntilRedraw(root.timer, root.nowUsec) : -1
        onTriggered: {
            root.nowUsec = Date.now() * 1000;
            // Without restd's signals (Plasma 6.3): the rest ran out by the local count, read again
            // (each second, until restd says it is over) to show at once that it rings.
            if (!client.followsSignals && Widget.awaitsEnd(root.timer, root.nowUsec))
                client.refresh();
        }
    }
}
