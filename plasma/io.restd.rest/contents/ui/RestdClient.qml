// restd as the widget sees it: the timers, the live activity and the workout, read through
// Plasma's D-Bus module, and the Manager's methods. Plasma 6.3 has method calls and a name watcher
// but no signals in QML: the state is read when restd appears, after every action, and at a slow
// interval while restd runs (`refreshInterval` while a timer is shown, `idleRefreshInterval`
// otherwise, when only the list of timers is read); the countdown itself is computed from the
// timers' wall-clock ends (main.qml), which is exact. From 6.4 on, RestdSignals.qml follows
// restd's own signals instead, and nothing is re-read at an interval.
import QtQuick
import org.kde.plasma.workspace.dbus as DBus

import "../code/widget.mjs" as Widget

Item {
    id: client

    readonly property string service: "io.restd.Rest1"
    readonly property string rootPath: "/io/restd/Rest1"
    readonly property string managerIface: "io.restd.Rest1.Manager"

    /** Whether restd owns its name. */
    readonly property bool connected: watcher.registered
    /** Object path → timer (timers.mjs), from GetManagedObjects and the signals. */
    property var timers: ({})
    /** The id of the timer that changed last (the "last changed" setting follows it). */
    property string lastChangedId: ""
    /** io.restd.Rest1.Live's Fields ({heart_rate: 128, …}), or null. */
    property var live: null
    /** io.restd.Rest1.Workout's properties, or null. */
    property var workout: null
    /** The last "Set done"'s reply: {restUsec, restSource}, or null. */
    property var lastSet: null
    /** The Manager's WeightUnit: the unit weights are shown in, "kg" or "lb". */
    property string weightUnit: "kg"
    /**
     * Timer id → History.SetRecorded's entry of the last set recorded on it (from 6.4 on, where
     * signals are followed: 6.3 cannot hear SetRecorded, so it shows no record line).
     */
    property var records: ({})
    /** restd's sentence for the last failed call, or "". */
    property string error: ""
    /** Whether a timer is shown (main.qml): the re-read is then more frequent, and complete. */
    property bool timerShown: false
    property int refreshInterval: 10000
    property int idleRefreshInterval: 30000
    /** Whether restd's signals are followed (Plasma 6.4 and later). */
    readonly property bool followsSignals: signals.status === Loader.Ready
    /** Method calls made: what the measurements and the tests count. */
    property int calls: 0

    // Replies in flight, kept so that the engine does not collect them before they finish.
    property var pending: []

    // `signature`: the arguments' as a structure, "(sx)" (the module encodes the list as one).
    function call(path, iface, member, signature, args, done) {
        const reply = DBus.SessionBus.asyncCall({
            service: client.service, path: path, iface: iface, member: member,
            arguments: args, signature: signature,
        });
        client.calls += 1;
        client.pending = client.pending.concat([reply]);
        reply.finished.connect(() => {
            client.pending = client.pending.filter(r => r !== reply);
            if (reply.isError)
                done(null, reply.error.message);
            else
                done(Widget.plain(reply.values), "");
        });
    }

    /** Reads everything restd shows: the timers, the live activity, the workout. */
    function refresh() {
        if (!connected)
            return;
        call(rootPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", "", [], (values, error) => {
            if (values === null) {
                client.error = error;
                return;
            }
            setTimers(Widget.timersFromObjects(values[0]));
            call(rootPath, "org.freedesktop.DBus.Properties", "Get", "(ss)", [managerIface, "WeightUnit"],
                (unit) => { client.weightUnit = unit !== null && unit[0] === "lb" ? "lb" : "kg"; });
            if (Object.keys(client.timers).length > 0 || client.followsSignals)
                refreshActivity();
            else
                client.live = null;
        });
    }

    /** Reads the live activity and the workout. */
    function refreshActivity() {
        call(rootPath + "/live", "org.freedesktop.DBus.Properties", "Get", "(ss)", ["io.restd.Rest1.Live", "Fields"],
            (values) => setLive(values === null ? null : values[0]));
        call(rootPath + "/workout", "org.freedesktop.DBus.Properties", "GetAll", "(s)", ["io.restd.Rest1.Workout"],
            (values) => { client.workout = values === null ? null : values[0]; });
    }

    function setTimers(timers) {
        const changed = Widget.changedTimerId(client.timers, timers);
        if (changed)
            client.lastChangedId = changed;
        client.timers = timers;
    }

    function setLive(fields) {
        client.live = fields && Object.keys(fields).length > 0 ? fields : null;
    }

    /** Calls one of the popup's actions (widget.mjs's actions()); re-reads after it. */
    function act(action) {
        call(rootPath, managerIface, action.method, action.signature, action.args, (values, error) => {
            client.error = error;
            if (values !== null && action.method === "CompleteSet")
                client.lastSet = {restUsec: values[1], restSource: values[2]};
            if (!client.followsSignals)
                client.refresh();
        });
    }

    /** A set was recorded: the record it beat (if any) goes with the rest it starts on its timer. */
    function setRecorded(set) {
        if (typeof set?.timer !== "string")
            return;
        const records = Object.assign({}, client.records);
        records[set.timer] = set;
        client.records = records;
    }

    function forget() {
        client.records = {};
        client.timers = {};
        client.live = null;
        client.workout = null;
        client.lastSet = null;
    }

    DBus.DBusServiceWatcher {
        id: watcher
        busType: DBus.BusType.Session
        watchedService: client.service
        onRegisteredChanged: {
            client.error = "";
            if (registered)
                client.refresh();
            else
                client.forget();
        }
    }

    Component.onCompleted: refresh()

    Timer {
        interval: client.timerShown ? client.refreshInterval : client.idleRefreshInterval
        repeat: true
        running: client.connected && !client.followsSignals
        onTriggered: client.refresh()
    }

    // Plasma 6.4's signal watcher, absent from 6.3: probed first (a failed Qt.createQmlObject
    // throws, where a Loader would log an error), then loaded, so that 6.3 still loads the widget.
    function hasSignalWatcher() {
        try {
            Qt.createQmlObject("import org.kde.plasma.workspace.dbus as DBus; DBus.SignalWatcher {}", client).destroy();
            return true;
        } catch (e) {
            return false;
        }
    }

    Loader {
        id: signals
        Component.onCompleted: {
            if (client.hasSignalWatcher())
                setSource(Qt.resolvedUrl("RestdSignals.qml"), {client: client});
        }
    }
}
