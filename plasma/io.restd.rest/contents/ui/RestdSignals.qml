// restd's signals, on Plasma 6.4 and later (SignalWatcher): timers added and removed, each timer's
// PropertiesChanged, the live activity's and the workout's. RestdClient.qml loads this file
// through a Loader; on 6.3, where SignalWatcher does not exist, the Loader fails and the client
// re-reads instead.
import QtQuick
import org.kde.plasma.workspace.dbus as DBus

import "../code/widget.mjs" as Widget

Item {
    id: signals

    required property Item client

    DBus.SignalWatcher {
        busType: DBus.BusType.Session
        service: signals.client.service
        path: signals.client.rootPath
        iface: "org.freedesktop.DBus.ObjectManager"
        function dbusInterfacesAdded(path, interfaces) {
            const timer = Widget.timerFromInterfaces(String(path), Widget.plain(interfaces));
            if (!timer)
                return;
            const timers = Object.assign({}, signals.client.timers);
            timers[String(path)] = timer;
            signals.client.setTimers(timers);
        }
        function dbusInterfacesRemoved(path, interfaces) {
            if (!Widget.removesTimer(String(path), Widget.plain(interfaces)))
                return;
            const timers = Object.assign({}, signals.client.timers);
            delete timers[String(path)];
            signals.client.timers = timers;
        }
    }

    // One watcher per timer: SignalWatcher follows one object path.
    Instantiator {
        model: Object.keys(signals.client.timers)
        delegate: DBus.SignalWatcher {
            required property string modelData
            busType: DBus.BusType.Session
            service: signals.client.service
            path: modelData
            iface: "org.freedesktop.DBus.Properties"
            function dbusPropertiesChanged(iface, changed) {
                const timer = signals.client.timers[modelData];
                if (!timer || String(iface) !== "io.restd.Rest1.Timer")
                    return;
                const timers = Object.assign({}, signals.client.timers);
                timers[modelData] = Widget.withProperties(timer, Widget.plain(changed));
                signals.client.setTimers(timers);
            }
        }
    }

    DBus.SignalWatcher {
        busType: DBus.BusType.Session
        service: signals.client.service
        path: signals.client.rootPath + "/live"
        iface: "org.freedesktop.DBus.Properties"
        function dbusPropertiesChanged(iface, changed) {
            const fields = Widget.plain(changed).Fields;
            if (fields !== undefined)
                signals.client.setLive(fields);
        }
    }

    DBus.SignalWatcher {
        busType: DBus.BusType.Session
        service: signals.client.service
        path: signals.client.rootPath + "/history"
        iface: "io.restd.Rest1.History"
        function dbusSetRecorded(set) {
            signals.client.setRecorded(Widget.plain(set));
        }
    }

    // The Manager's WeightUnit, which a reload of config.toml may change.
    DBus.SignalWatcher {
        busType: DBus.BusType.Session
        service: signals.client.service
        path: signals.client.rootPath
        iface: "org.freedesktop.DBus.Properties"
        function dbusPropertiesChanged(iface, changed) {
            const unit = Widget.plain(changed).WeightUnit;
            if (String(iface) === signals.client.managerIface && unit !== undefined)
                signals.client.weightUnit = unit === "lb" ? "lb" : "kg";
        }
    }

    DBus.SignalWatcher {
        busType: DBus.BusType.Session
        service: signals.client.service
        path: signals.client.rootPath + "/workout"
        iface: "org.freedesktop.DBus.Properties"
        function dbusPropertiesChanged(iface, changed) {
            signals.client.workout = Object.assign({}, signals.client.workout, Widget.plain(changed));
        }
    }
}
