// In the panel: the time, the exercise, ♥ heart rate and set progress (the GNOME label's words), after
// the pause mark when paused; the theme's alarm icon when nothing runs. Ellipsised past the width
// set in the settings; in a vertical panel, the time alone.
import QtQuick
import QtQuick.Layouts
import org.kde.plasma.plasmoid
import org.kde.plasma.core as PlasmaCore
import org.kde.plasma.components as PlasmaComponents3
import org.kde.kirigami as Kirigami

MouseArea {
    id: compact

    readonly property bool vertical: Plasmoid.formFactor === PlasmaCore.Types.Vertical
    readonly property real maximumWidth: Plasmoid.configuration.maximumWidth * Kirigami.Units.gridUnit

    Layout.minimumWidth: vertical ? 0 : row.implicitWidth
    Layout.preferredWidth: vertical ? -1 : row.implicitWidth
    Layout.maximumWidth: vertical ? -1 : maximumWidth
    Layout.minimumHeight: vertical ? row.implicitHeight : 0

    acceptedButtons: Qt.LeftButton
    onClicked: root.expanded = !root.expanded

    RowLayout {
        id: row
        anchors.centerIn: parent
        width: Math.min(implicitWidth, compact.vertical ? compact.width : compact.maximumWidth)
        spacing: Kirigami.Units.smallSpacing

        Kirigami.Icon {
            Layout.preferredWidth: Kirigami.Units.iconSizes.smallMedium
            Layout.preferredHeight: Kirigami.Units.iconSizes.smallMedium
            visible: root.compactIcon !== "" && !(compact.vertical && root.timer && root.timer.state === "running")
            source: root.compactIcon
            color: label.color
            isMask: true
        }

        PlasmaComponents3.Label {
            id: label
            Layout.fillWidth: true
            visible: text !== ""
            text: compact.vertical ? root.timeText : root.compactText
            elide: Text.ElideRight
            maximumLineCount: 1
            fontSizeMode: compact.vertical ? Text.HorizontalFit : Text.FixedSize
            minimumPixelSize: Kirigami.Theme.smallFont.pixelSize
            font.features: {"tnum": 1}
            color: {
                switch (root.emphasis) {
                case "over": return Kirigami.Theme.negativeTextColor;
                case "warning": return Kirigami.Theme.neutralTextColor;
                case "paused": return Kirigami.Theme.disabledTextColor;
                default: return Kirigami.Theme.textColor;
                }
            }
        }
    }
}
