// The pages of the widget's configuration dialog.
import QtQuick
import org.kde.plasma.configuration

ConfigModel {
    ConfigCategory {
        name: i18nc("@title", "General")
        icon: "preferences-desktop-plasma"
        source: "ConfigGeneral.qml"
    }
}
