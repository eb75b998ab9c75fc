// restd on the session bus, as the indicator sees it: follows the bus name (watch_name, no
// polling), keeps the timers from the ObjectManager's signals and the live activity and
// workout from their proxies, and calls the Manager. No Shell imports; every bus call is
// asynchronous, so nothing here ever blocks the Shell's main loop.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

import {fill} from './lib/format.js';
import {emptyTimer, withProperties} from './lib/timers.js';

const BUS_NAME = 'io.restd.Rest1';
const ROOT_PATH = '/io/restd/Rest1';
const TIMER_PATH_PREFIX = '/io/restd/Rest1/timer/';
const MANAGER_IFACE = 'io.restd.Rest1.Manager';
const TIMER_IFACE = 'io.restd.Rest1.Timer';
const LIVE = {path: '/io/restd/Rest1/live', iface: 'io.restd.Rest1.Live'};
const WORKOUT = {path: '/io/restd/Rest1/workout', iface: 'io.restd.Rest1.Workout'};
const HISTORY = {path: '/io/restd/Rest1/history', iface: 'io.restd.Rest1.History'};

/** The interface contract restd installs, looked up as D-Bus does: user data dir first. */
const INTERFACE_FILE = 'dbus-1/interfaces/io.restd.Rest1.xml';

/** A D-Bus error as the sentence restd wrote, without GDBus's "GDBus.Error:name: " prefix. */
export function errorSentence(error) {
    if (error instanceof GLib.Error && Gio.DBusError.is_remote_error(error))
        Gio.DBusError.strip_remote_error(error);
    return error.message;
}

function isCancelled(error) {
    return error instanceof GLib.Error && error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED);
}

export class RestClient {
    /**
     * `onChange` is called after every change of the state below (nothing happens before start());
     * `texts` is the language of its own sentences (lib/format.js).
     */
    constructor(onChange, texts) {
        this._onChange = onChange;
        this._texts = texts;
        this._reset();
    }

    _reset() {
        /** Whether restd owns its name now. */
        this.connected = false;
        /** Object path → timer (lib/timers.js), from GetManagedObjects and the signals. */
        this.timers = new Map();
        /** io.restd.Rest1.Live's Fields, unpacked ({heart_rate: 128, …}), or null. */
        this.live = null;
        /** io.restd.Rest1.Workout's properties, unpacked, or null. */
        this.workout = null;
        /** The Manager's WeightUnit: the unit weights are shown in, 'kg' or 'lb'. */
        this.weightUnit = 'kg';
        /** Timer id → History.SetRecorded's entry (unpacked) of the last set recorded on it. */
        this.records = {};
    }

    /** Reads the installed interface contract, then follows restd's name. */
    start() {
        this._cancellable = new Gio.Cancellable();
        const candidates = [GLib.get_user_data_dir(), ...GLib.get_system_data_dirs()]
            .map(dir => Gio.File.new_for_path(GLib.build_filenamev([dir, INTERFACE_FILE])));
        this._loadInterfaces(candidates, this._cancellable);
    }

    _loadInterfaces(candidates, cancellable) {
        const [file, ...rest] = candidates;
        if (!file) {
            // TRANSLATORS: in the menu when restd's interface file (a path) is found nowhere.
            this._interfaceError(fill(this._texts.gettext('%1$s is not installed in any data directory: is restd installed?'),
                INTERFACE_FILE));
            return;
        }
        file.load_contents_async(cancellable, (f, result) => {
            let xml;
            try {
                [, xml] = f.load_contents_finish(result);
            } catch (e) {
                if (!isCancelled(e))
                    this._loadInterfaces(rest, cancellable);
                return;
            }
            try {
                this._nodeInfo = Gio.DBusNodeInfo.new_for_xml(new TextDecoder().decode(xml));
            } catch (e) {
                this._interfaceError(`${f.get_path()}: ${e.message}`);
                return;
            }
            this._watch();
        });
    }

    /**
     * Without the interface file the proxies go without interface info (no type checks on
     * restd's replies and properties), and its sentence stays in the menu while restd comes
     * and goes.
     */
    _interfaceError(sentence) {
        this._setupError = sentence;
        this.error = sentence;
        this._changed();
        this._watch();
    }

    _watch() {
        this._watchId = Gio.bus_watch_name_on_connection(Gio.DBus.session, BUS_NAME,
            Gio.BusNameWatcherFlags.NONE,
            (connection, name, owner) => this._appeared(connection, owner),
            () => this._vanished());
    }

    /** Stops following restd: cancels what is pending, unsubscribes and unwatches everything. */
    stop() {
        if (this._cancellable)
            this._cancellable.cancel();
        this._cancellable = null;
        if (this._watchId) {
            Gio.bus_unwatch_name(this._watchId);
            this._watchId = 0;
        }
        this._drop();
        this._nodeInfo = null;
        this._setupError = null;
        this._onChange = null;
    }

    _appeared(connection, owner) {
        this._drop();
        this.connected = true;
        this.error = this._setupError ?? null;
        this._connection = connection;
        // Everything of this appearance is cancelled and unsubscribed together when the
        // name goes away, so that a restarted restd starts from a clean state.
        this._ownerCancellable = new Gio.Cancellable();
        const cancellable = this._ownerCancellable;
        // Subscribed before GetManagedObjects: its reply is newer than every signal before it.
        this._subscriptions = [
            connection.signal_subscribe(owner, 'org.freedesktop.DBus.ObjectManager', null, ROOT_PATH,
                null, Gio.DBusSignalFlags.NONE, (c, s, p, i, signal, params) => this._objectsChanged(signal, params)),
            connection.signal_subscribe(owner, 'org.freedesktop.DBus.Properties', 'PropertiesChanged',
                null, TIMER_IFACE, Gio.DBusSignalFlags.NONE,
                (c, s, path, i, signal, params) => this._timerChanged(path, params)),
            connection.signal_subscribe(owner, HISTORY.iface, 'SetRecorded', HISTORY.path, null,
                Gio.DBusSignalFlags.NONE, (c, s, p, i, signal, params) => this._setRecorded(params)),
        ];
        connection.call(owner, ROOT_PATH, 'org.freedesktop.DBus.ObjectManager', 'GetManagedObjects',
            null, new GLib.VariantType('(a{oa{sa{sv}}})'), Gio.DBusCallFlags.NO_AUTO_START, -1, cancellable,
            (c, result) => {
                let objects;
                try {
                    [objects] = c.call_finish(result).recursiveUnpack();
                } catch (e) {
                    if (!isCancelled(e))
                        this._failed(e);
                    return;
                }
                this.timers = new Map();
                for (const [path, interfaces] of Object.entries(objects))
                    this._addTimer(path, interfaces);
                this._changed();
            });
        // Called, and its WeightUnit followed; no signals of its own to follow.
        this._manager = this._proxy(connection, owner, ROOT_PATH, MANAGER_IFACE, cancellable, proxy => {
            this.weightUnit = proxy.get_cached_property('WeightUnit')?.unpack() === 'lb' ? 'lb' : 'kg';
        }, Gio.DBusProxyFlags.DO_NOT_CONNECT_SIGNALS);
        this._live = this._proxy(connection, owner, LIVE.path, LIVE.iface, cancellable, proxy => {
            const fields = proxy.get_cached_property('Fields')?.recursiveUnpack() ?? {};
            this.live = Object.keys(fields).length > 0 ? fields : null;
        });
        this._workout = this._proxy(connection, owner, WORKOUT.path, WORKOUT.iface, cancellable, proxy => {
            const workout = {};
            for (const name of proxy.get_cached_property_names() ?? [])
                workout[name] = proxy.get_cached_property(name).recursiveUnpack();
            this.workout = workout;
        });
        this._changed();
    }

    /**
     * A proxy for one of restd's objects, built from the installed interface description and
     * initialised asynchronously; `read(proxy)` takes its properties, at first and on each
     * PropertiesChanged (the Live object's are already throttled by restd).
     */
    _proxy(connection, owner, path, iface, cancellable, read, flags = Gio.DBusProxyFlags.NONE) {
        const proxy = new Gio.DBusProxy({
            g_connection: connection, g_name: owner, g_object_path: path, g_interface_name: iface,
            g_interface_info: this._nodeInfo?.lookup_interface(iface) ?? null,
            g_flags: Gio.DBusProxyFlags.DO_NOT_AUTO_START | flags,
        });
        proxy.init_async(GLib.PRIORITY_DEFAULT, cancellable, (p, result) => {
            try {
                p.init_finish(result);
            } catch (e) {
                if (!isCancelled(e))
                    this._failed(e);
                return;
            }
            if (!read)
                return;
            read(p);
            this._changed();
            this._proxySignals.push([p, p.connect('g-properties-changed', () => {
                read(p);
                this._changed();
            })]);
        });
        return proxy;
    }

    _objectsChanged(signal, params) {
        const [path, second] = params.recursiveUnpack();
        if (signal === 'InterfacesAdded') {
            this._addTimer(path, second);
        } else if (signal === 'InterfacesRemoved') {
            if (!second.includes(TIMER_IFACE))
                return;
            this.timers.delete(path);
        } else {
            return;
        }
        this._changed();
    }

    _addTimer(path, interfaces) {
        if (path.startsWith(TIMER_PATH_PREFIX) && interfaces[TIMER_IFACE])
            this.timers.set(path, withProperties(emptyTimer(), interfaces[TIMER_IFACE]));
    }

    /** A set was recorded: the record it beat (if any) goes with the rest it starts on its timer. */
    _setRecorded(params) {
        const [set] = params.recursiveUnpack();
        if (typeof set?.timer !== 'string')
            return;
        this.records = {...this.records, [set.timer]: set};
        this._changed();
    }

    _timerChanged(path, params) {
        const [, changed] = params.recursiveUnpack();
        const timer = this.timers.get(path);
        if (!timer)
            return; // InterfacesAdded or the GetManagedObjects reply will bring it whole.
        this.timers.set(path, withProperties(timer, changed));
        this._changed();
    }

    _vanished() {
        if (!this.connected && !this._connection)
            return;
        this._drop();
        this._changed();
    }

    /** Forgets restd: cancels its pending calls, unsubscribes its signals, drops its proxies. */
    _drop() {
        if (this._ownerCancellable)
            this._ownerCancellable.cancel();
        this._ownerCancellable = null;
        for (const id of this._subscriptions ?? [])
            this._connection.signal_unsubscribe(id);
        this._subscriptions = [];
        for (const [proxy, id] of this._proxySignals ?? [])
            proxy.disconnect(id);
        this._proxySignals = [];
        this._manager = this._live = this._workout = null;
        this._connection = null;
        const error = this.error;
        this._reset();
        this.error = error;
    }

    _failed(error) {
        this.error = errorSentence(error);
        this._changed();
    }

    _changed() {
        if (this._onChange)
            this._onChange();
    }

    /**
     * Calls a Manager method; `done(reply, errorSentence)` gets the unpacked reply, or the
     * daemon's sentence when the call failed. Nothing is called back after stop().
     */
    call(method, signature, args, done) {
        if (!this._manager) {
            done(null, 'restd is not running');
            return;
        }
        this._manager.call(method, new GLib.Variant(signature, args), Gio.DBusCallFlags.NO_AUTO_START,
            -1, this._ownerCancellable, (proxy, result) => {
                let reply;
                try {
                    reply = proxy.call_finish(result).recursiveUnpack();
                } catch (e) {
                    if (!isCancelled(e))
                        done(null, errorSentence(e));
                    return;
                }
                done(reply, null);
            });
    }
}
