// The panel button: a label that counts down locally and a menu built from lib/menuModel.js.
// It ticks only while its timer runs (or is over) and the label is on screen, once per
// second of the timer's own boundaries; a paused timer, or none, leaves no main-loop source.

import Clutter from 'gi://Clutter';
import GLib from 'gi://GLib';
import GObject from 'gi://GObject';
import St from 'gi://St';

import * as PanelMenu from 'resource:///org/gnome/shell/ui/panelMenu.js';
import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';

import {ALL_STYLE_CLASSES, IDLE_ICON, msUntilNextChange, panelIcon, panelText, styleClasses} from './lib/format.js';
import {orderTimers} from './lib/timers.js';
import {menuItems} from './lib/menuModel.js';

export const RestIndicator = GObject.registerClass(
class RestIndicator extends PanelMenu.Button {
    /**
     * `client`: the RestClient; `options`: {texts, showIdleIcon(), historyView(), menuOpening(),
     * openHistory(done)} from the extension, which owns the settings and the language (`texts`,
     * lib/format.js); historyView() is read on
     * every redraw and must be cheap; menuOpening() may look at the file system; openHistory()
     * calls done, then or later, with null or the sentence of why nothing opened, and never
     * once the extension is disabled.
     */
    _init(client, options) {
        super._init(0.5, 'restd', false);
        this._client = client;
        this._options = options;
        this._tickId = 0;
        this._lastSet = null;
        this._callError = null;

        // Without a timer: the idle icon. With one: the timer box, whose style classes say its
        // state, so that the state icon (a symbolic icon takes the text's colour) and the label
        // are coloured alike.
        const box = new St.BoxLayout({style_class: 'panel-status-menu-box'});
        this._icon = new St.Icon({icon_name: IDLE_ICON, style_class: 'system-status-icon'});
        this._timer = new St.BoxLayout({style_class: 'restd-timer'});
        this._stateIcon = new St.Icon({style_class: 'restd-state-icon', y_align: Clutter.ActorAlign.CENTER});
        this._label = new St.Label({style_class: 'restd-label', y_align: Clutter.ActorAlign.CENTER});
        this._timer.add_child(this._stateIcon);
        this._timer.add_child(this._label);
        box.add_child(this._icon);
        box.add_child(this._timer);
        this.add_child(box);

        // Signals of the indicator's own actors go with them in destroy(). It ticks only
        // while the label is on screen: unmapping stops the tick, mapping redraws.
        this._label.connect('notify::mapped', () => {
            if (this._label.mapped)
                this.redraw();
            else
                this._stopTicking();
        });
        // Open, the menu's other timers tick too (redraw arms the tick for them); closed, only
        // the label's timer.
        this.menu.connect('open-state-changed', (menu, open) => {
            if (open)
                this._options.menuOpening();
            this.redraw();
        });
        this.redraw();
    }

    _onDestroy() {
        // First of all: nothing may tick or redraw once destruction has begun.
        this._destroyed = true;
        this._stopTicking();
        super._onDestroy();
    }

    /** Redraws the label and the menu from the client's state, now. */
    redraw() {
        // Showing or hiding the label maps or unmaps it, which redraws: that inner call is
        // the outer one's business, and must not arm a second source.
        if (this._destroyed || this._redrawing)
            return;
        this._redrawing = true;
        try {
            this._redraw();
        } finally {
            this._redrawing = false;
        }
    }

    _redraw() {
        this._stopTicking();
        // A refusal and the last set's rest belong to the restd that answered them: forgotten
        // when it goes away or comes back.
        if (this._client.connected !== this._wasConnected) {
            this._wasConnected = this._client.connected;
            this._callError = null;
            this._lastSet = null;
        }
        const now = GLib.get_real_time();
        const timers = orderTimers([...this._client.timers.values()]);
        const timer = timers[0] ?? null;
        this._followedId = timer?.id ?? null;
        for (const name of ALL_STYLE_CLASSES)
            this._timer.remove_style_class_name(name);
        if (!timer) {
            this._label.text = '';
            this._timer.visible = false;
            this._icon.visible = true;
            this.visible = this._options.showIdleIcon();
        } else {
            this._label.text = panelText(timer, this._client.live, now, this._options.texts);
            const icon = panelIcon(timer);
            if (icon)
                this._stateIcon.icon_name = icon;
            this._stateIcon.visible = icon !== null;
            for (const name of styleClasses(timer, now))
                this._timer.add_style_class_name(name);
            this._timer.visible = true;
            this._icon.visible = false;
            this.visible = true;
            // The label's timer; with the menu open, the soonest change of any timer it shows.
            const changes = (this.menu.isOpen ? timers : [timer]).map(t => msUntilNextChange(t, now)).filter(ms => ms >= 0);
            this._tickAfter(changes.length > 0 ? Math.min(...changes) : -1);
        }
        // Kept filled while closed too: a PopupMenu without items does not open.
        this._fillMenu();
    }

    _tickAfter(ms) {
        this._stopTicking();
        if (ms < 0 || !this._label.mapped)
            return;
        this._tickId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, ms, () => {
            this._tickId = 0;
            this.redraw();
            return GLib.SOURCE_REMOVE;
        });
        GLib.Source.set_name_by_id(this._tickId, '[restd] panel tick');
    }

    _stopTicking() {
        if (this._tickId) {
            GLib.source_remove(this._tickId);
            this._tickId = 0;
        }
    }

    /**
     * The menu model's items as PopupMenu items: rebuilt when their kinds change, else
     * relabelled. An action's call (which timer it acts on) is kept on its PopupMenu item and
     * replaced on every fill, so that a press acts on the timer followed now.
     */
    _fillMenu() {
        const items = menuItems({
            connected: this._client.connected,
            timers: [...this._client.timers.values()],
            followedId: this._followedId,
            workout: this._client.workout,
            lastSet: this._lastSet,
            records: this._client.records,
            weightUnit: this._client.weightUnit,
            error: this._callError ?? this._client.error,
            historyView: this._options.historyView(),
        }, GLib.get_real_time(), this._options.texts);
        const shape = items.map(i => `${i.type}:${i.call ? i.call.method + i.text : ''}`).join('|');
        const current = this.menu._getMenuItems();
        if (shape === this._menuShape && current.length === items.length) {
            items.forEach((item, i) => {
                if (item.text !== undefined)
                    current[i].label.text = item.text;
                current[i]._restdCall = item.call ?? null;
            });
            return;
        }
        this._menuShape = shape;
        this.menu.removeAll();
        for (const item of items)
            this.menu.addMenuItem(this._menuItem(item));
    }

    _menuItem(item) {
        switch (item.type) {
        case 'separator':
            return new PopupMenu.PopupSeparatorMenuItem();
        case 'action': {
            const menuItem = new PopupMenu.PopupMenuItem(item.text);
            menuItem._restdCall = item.call;
            menuItem.connect('activate', () => {
                if (menuItem._restdCall)
                    this._call(menuItem._restdCall);
            });
            return menuItem;
        }
        case 'history': {
            const menuItem = new PopupMenu.PopupMenuItem(item.text);
            // A terminal that could not start says why in the menu, as a refused call does.
            menuItem.connect('activate', () => {
                this._options.openHistory(error => {
                    this._callError = error;
                    this.redraw();
                });
            });
            return menuItem;
        }
        default: {
            const menuItem = new PopupMenu.PopupMenuItem(item.text, {reactive: false});
            menuItem.label.add_style_class_name(`restd-menu-${item.type}`);
            return menuItem;
        }
        }
    }

    _call({method, signature, args}) {
        this._client.call(method, signature, args, (reply, error) => {
            this._callError = error;
            if (method === 'CompleteSet' && reply)
                this._lastSet = {restUsec: reply[1], restSource: reply[2]};
            this.redraw();
        });
    }
});
