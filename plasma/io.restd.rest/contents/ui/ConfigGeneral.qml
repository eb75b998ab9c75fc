// The settings page: which timer, what the panel shows beside the time, and its width.
import QtQuick
import QtQuick.Controls as QQC2
import org.kde.kcmutils as KCM
import org.kde.kirigami as Kirigami

KCM.SimpleKCM {
    property alias cfg_follow: follow.currentIndex
    property alias cfg_timerId: timerId.text
    property alias cfg_showExercise: showExercise.checked
    property alias cfg_showHeartRate: showHeartRate.checked
    property alias cfg_maximumWidth: maximumWidth.value

    Kirigami.FormLayout {
        QQC2.ComboBox {
            id: follow
            Kirigami.FormData.label: i18nc("@label:listbox", "Show:")
            model: [
                i18nc("@item:inlistbox", "The default timer, else the one ending soonest"),
                i18nc("@item:inlistbox", "The timer that changed last"),
                i18nc("@item:inlistbox", "This timer:"),
            ]
        }
        QQC2.TextField {
            id: timerId
            Kirigami.FormData.label: i18nc("@label:textbox", "Timer id:")
            enabled: follow.currentIndex === 2
        }
        QQC2.CheckBox {
            id: showExercise
            Kirigami.FormData.label: i18nc("@title:group", "Beside the time:")
            text: i18nc("@option:check", "The exercise")
        }
        QQC2.CheckBox {
            id: showHeartRate
            text: i18nc("@option:check", "The heart rate")
        }
        QQC2.SpinBox {
            id: maximumWidth
            Kirigami.FormData.label: i18nc("@label:spinbox", "Widest (in letters' heights):")
            from: 4
            to: 60
        }
    }
}
