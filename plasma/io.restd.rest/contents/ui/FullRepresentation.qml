// The popup: the shown timer and its buttons (Stop while it rings, Pause/Resume, +30 s, −15 s, Skip), "Set done" with
// the rest it started, the workout's next set, the other timers and "Open report", as the GNOME
// extension's menu.
import QtQuick
import QtQuick.Layouts
import QtCore
import org.kde.plasma.plasmoid
import org.kde.plasma.components as PlasmaComponents3
import org.kde.plasma.extras as PlasmaExtras
import org.kde.plasma.plasma5support as Plasma5Support
import org.kde.kirigami as Kirigami

import "../code/widget.mjs" as Widget
import "../code/format.mjs" as Format

PlasmaExtras.Representation {
    id: full

    readonly property var timer: root.timer
    readonly property var client: root.client
    readonly property var workout: Widget.workoutInfo(client.workout)
    // The buttons, as text: the time moves every second, the buttons only when the timer's state
    // does, and a string property notifies only real changes, so the buttons are not made anew
    // (and a press is not lost) at every second.
    readonly property string actionsJson: JSON.stringify(client.connected ? Widget.actions(timer, root.nowUsec) : [])

    Layout.minimumWidth: Kirigami.Units.gridUnit * 16
    Layout.preferredWidth: Kirigami.Units.gridUnit * 18
    Layout.preferredHeight: column.implicitHeight + Kirigami.Units.largeSpacing * 2

    function summaryText(timer) {
        const s = Widget.summary(timer, root.nowUsec);
        switch (s.kind) {
        case "over": return i18nc("a timer's name, how long it is over", "%1 · over by %2", s.name, s.time);
        case "ringing": return i18nc("a timer's name, how long it is over; its alarm rings", "%1 · over by %2, ringing", s.name, s.time);
        case "paused": return i18nc("a timer's name, time left", "%1 · paused, %2 left", s.name, s.time);
        default: return i18nc("a timer's name, time left", "%1 · %2 left", s.name, s.time);
        }
    }

    function actionText(action) {
        switch (action) {
        case "stop": return i18nc("@action:button stop the alarm", "Stop");
        case "pause": return i18nc("@action:button", "Pause");
        case "resume": return i18nc("@action:button", "Resume");
        case "add": return i18nc("@action:button add 30 seconds", "+30 s");
        case "subtract": return i18nc("@action:button take 15 seconds away", "−15 s");
        case "skip": return i18nc("@action:button end the rest now", "Skip");
        default: return i18nc("@action:button a set is finished", "Set done");
        }
    }

    function actionIcon(action) {
        switch (action) {
        case "stop": return "media-playback-stop";
        case "pause": return "media-playback-pause";
        case "resume": return "media-playback-start";
        case "add": return "list-add";
        case "subtract": return "list-remove";
        case "skip": return "media-skip-forward";
        default: return "checkmark";
        }
    }

    // "Open report": the one action that starts a process (restctl report), through Plasma's
    // executable engine; the browser then opens the page.
    Plasma5Support.DataSource {
        id: executable
        engine: "executable"
        property string reportPath: ""
        onNewData: (source, data) => {
            disconnectSource(source);
            if (data["exit code"] === 0)
                Qt.openUrlExternally("file://" + reportPath);
            else
                full.client.error = String(data.stderr).trim() || i18n("restctl report failed");
        }
    }

    function openReport() {
        const cache = String(StandardPaths.writableLocation(StandardPaths.GenericCacheLocation)).replace(/^file:\/\//, "");
        const report = Widget.reportCommand(cache);
        executable.reportPath = report.path;
        executable.connectSource(report.command);
        root.expanded = false;
    }

    ColumnLayout {
        id: column
        anchors.fill: parent
        spacing: Kirigami.Units.smallSpacing

        PlasmaExtras.PlaceholderMessage {
            Layout.fillWidth: true
            visible: !full.client.connected
            iconName: Widget.IDLE_ICON
            text: i18n("restd is not running")
        }

        Kirigami.Heading {
            Layout.fillWidth: true
            visible: full.client.connected
            level: 3
            wrapMode: Text.Wrap
            text: full.timer ? full.summaryText(full.timer) : i18n("No rest running")
        }

        // The record the set that started this rest beat, in the Manager's unit (format.mjs).
        PlasmaComponents3.Label {
            readonly property string record: full.timer
                ? (Format.restRecord(full.timer, full.client.records[full.timer.id], full.client.weightUnit, root.texts) ?? "")
                : ""
            objectName: "record"
            Layout.fillWidth: true
            visible: full.client.connected && record !== ""
            wrapMode: Text.Wrap
            text: record
        }

        PlasmaComponents3.Label {
            Layout.fillWidth: true
            visible: full.client.connected && full.timer !== null && full.timer.next !== "" && full.workout === null
            wrapMode: Text.Wrap
            text: full.timer ? i18nc("what comes after the rest", "Next: %1", full.timer.next) : ""
        }

        Flow {
            Layout.fillWidth: true
            visible: full.client.connected
            spacing: Kirigami.Units.smallSpacing
            Repeater {
                model: JSON.parse(full.actionsJson)
                delegate: PlasmaComponents3.Button {
                    required property var modelData
                    text: full.actionText(modelData.action)
                    icon.name: full.actionIcon(modelData.action)
                    onClicked: full.client.act(modelData)
                }
            }
        }

        PlasmaComponents3.Label {
            Layout.fillWidth: true
            visible: full.client.connected && full.client.lastSet !== null
            wrapMode: Text.Wrap
            text: {
                const set = full.client.lastSet;
                if (!set)
                    return "";
                if (set.restUsec > 0)
                    return i18nc("the rest the finished set started, where its length came from", "Next rest %1 (%2)",
                        Format.clock(Math.round(set.restUsec / 1000000)), set.restSource);
                return i18n("No rest follows");
            }
        }

        PlasmaComponents3.Label {
            Layout.fillWidth: true
            visible: full.client.connected && full.workout !== null
            wrapMode: Text.Wrap
            text: full.workout ? i18nc("workout name, set number, sets planned", "%1 · set %2 of %3",
                full.workout.name || i18n("Workout"), full.workout.set, full.workout.planned) : ""
        }

        PlasmaComponents3.Label {
            Layout.fillWidth: true
            visible: full.client.connected && full.workout !== null && full.workout.exercise !== ""
            wrapMode: Text.Wrap
            text: {
                const w = full.workout;
                if (!w || !w.exercise)
                    return "";
                if (w.exerciseSets > 0)
                    return i18nc("the next set: exercise, set number, sets of it", "Next: %1, set %2 of %3", w.exercise, w.setIndex, w.exerciseSets);
                return i18nc("the next set: exercise, set number", "Next: %1, set %2", w.exercise, w.setIndex);
            }
        }

        Repeater {
            model: full.client.connected ? Widget.otherTimers(Object.values(full.client.timers), full.timer) : []
            delegate: PlasmaComponents3.Label {
                required property var modelData
                Layout.fillWidth: true
                wrapMode: Text.Wrap
                text: i18nc("a timer's id, then its summary", "%1: %2", modelData.id, full.summaryText(modelData))
            }
        }

        PlasmaComponents3.Button {
            visible: full.client.connected
            text: i18nc("@action:button", "Open report")
            icon.name: "view-statistics"
            onClicked: full.openReport()
        }

        PlasmaComponents3.Label {
            Layout.fillWidth: true
            visible: full.client.error !== ""
            wrapMode: Text.Wrap
            color: Kirigami.Theme.negativeTextColor
            text: full.client.error
        }
    }
}
