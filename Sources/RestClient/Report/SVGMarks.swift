import Localization
import RestCore

/// The SVG a chart is drawn with, written into the page. Coordinates are in the units of a
/// 640-wide view box, which the page scales to its width.
extension HTMLWriter {
    /// The width of every chart's view box.
    static let chartWidth = 640.0

    /// Opens a chart: an `<svg>` named for screen readers by its `<title>` and `<desc>` (ids
    /// `<id>-title`, `<id>-desc`), and for tests and style sheets by `data-chart`.
    mutating func openChart(kind: String, id: String, height: Double, title: String, description: String) {
        raw("<svg class=\"chart\"")
        attribute("data-chart", kind)
        attribute("id", id)
        raw(" viewBox=\"0 0 640 " + ReportNumber.coordinate(height) + "\" role=\"img\"")
        attribute("aria-labelledby", id + "-title " + id + "-desc")
        raw("><title")
        attribute("id", id + "-title")
        raw(">")
        text(title)
        raw("</title><desc")
        attribute("id", id + "-desc")
        raw(">")
        text(description)
        raw("</desc>")
    }

    mutating func closeChart() { raw("</svg>") }

    /// A rectangle; `tooltip` becomes its `<title>` (shown on hover, read by screen readers).
    mutating func rect(x: Double, y: Double, width: Double, height: Double, class className: String, tooltip: String?) {
        raw("<rect class=\"" + className + "\" x=\"" + ReportNumber.coordinate(x) + "\" y=\"")
        raw(ReportNumber.coordinate(y) + "\" width=\"" + ReportNumber.coordinate(max(width, 0)) + "\" height=\"")
        raw(ReportNumber.coordinate(max(height, 0)) + "\"")
        closeMark("rect", tooltip: tooltip)
    }

    /// A point: a circle, or a diamond (`diamond`: a second series tells itself apart by shape,
    /// not by colour alone).
    mutating func point(x: Double, y: Double, class className: String, diamond: Bool = false, tooltip: String?) {
        if diamond {
            raw("<path class=\"" + className + "\" d=\"M" + ReportNumber.coordinate(x) + " ")
            raw(ReportNumber.coordinate(y - 4.5) + "l4.5 4.5-4.5 4.5-4.5-4.5z\"")
            closeMark("path", tooltip: tooltip)
        } else {
            raw("<circle class=\"" + className + "\" cx=\"" + ReportNumber.coordinate(x) + "\" cy=\"")
            raw(ReportNumber.coordinate(y) + "\" r=\"3.5\"")
            closeMark("circle", tooltip: tooltip)
        }
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, class className: String) {
        raw("<line class=\"" + className + "\" x1=\"" + ReportNumber.coordinate(x1) + "\" y1=\"")
        raw(ReportNumber.coordinate(y1) + "\" x2=\"" + ReportNumber.coordinate(x2) + "\" y2=\"")
        raw(ReportNumber.coordinate(y2) + "\"/>")
    }

    /// A line through `points`, in order.
    mutating func polyline(_ points: [(x: Double, y: Double)], class className: String) {
        guard points.count > 1 else { return }
        raw("<polyline class=\"" + className + "\" points=\"")
        for (index, point) in points.enumerated() {
            if index > 0 { raw(" ") }
            raw(ReportNumber.coordinate(point.x) + "," + ReportNumber.coordinate(point.y))
        }
        raw("\"/>")
    }

    /// A label; `anchor` start, middle or end; `rotated` turns it to run upwards (a y axis's
    /// title).
    mutating func label(
        _ text: String, x: Double, y: Double, anchor: String = "start", class className: String = "label",
        rotated: Bool = false
    ) {
        let (px, py) = (ReportNumber.coordinate(x), ReportNumber.coordinate(y))
        raw("<text class=\"" + className + "\" x=\"" + px + "\" y=\"" + py + "\" text-anchor=\"" + anchor + "\"")
        if rotated { raw(" transform=\"rotate(-90 " + px + " " + py + ")\"") }
        raw(">")
        self.text(text)
        raw("</text>")
    }

    private mutating func closeMark(_ tag: String, tooltip: String?) {
        guard let tooltip else {
            raw("/>")
            return
        }
        raw("><title>")
        text(tooltip)
        raw("</title></" + tag + ">")
    }
}

/// Where a chart draws inside its view box: the plot, and the margins left for its axes.
struct PlotFrame {
    var height: Double
    var top = 14.0
    var right = 16.0
    var bottom = 34.0
    var left = 60.0

    var plotLeft: Double { left }
    var plotRight: Double { HTMLWriter.chartWidth - right }
    var plotTop: Double { top }
    var plotBottom: Double { height - bottom }
}

extension HTMLWriter {
    /// The y axis: a grid line and a label at each tick, and the axis's title (its unit) running
    /// up the left edge.
    mutating func yAxis(_ scale: LinearScale, frame: PlotFrame, title: String, format: (Double) -> String) {
        for tick in scale.ticks {
            let y = scale(tick)
            line(x1: frame.plotLeft, y1: y, x2: frame.plotRight, y2: y, class: "grid")
            label(format(tick), x: frame.plotLeft - 6, y: y + 4, anchor: "end", class: "tick")
        }
        label(
            title, x: 14, y: (frame.plotTop + frame.plotBottom) / 2, anchor: "middle", class: "axis-title",
            rotated: true)
    }

    /// The x axis's base line and its labels, each at its x.
    mutating func xAxis(_ labels: [(x: Double, text: String)], frame: PlotFrame, title: String) {
        line(x1: frame.plotLeft, y1: frame.plotBottom, x2: frame.plotRight, y2: frame.plotBottom, class: "axis")
        for item in labels {
            line(x1: item.x, y1: frame.plotBottom, x2: item.x, y2: frame.plotBottom + 4, class: "axis")
            label(item.text, x: item.x, y: frame.plotBottom + 16, anchor: "middle", class: "tick")
        }
        label(title, x: frame.plotRight, y: frame.height - 4, anchor: "end", class: "axis-title")
    }
}

/// Dates and times as the report writes them: local, in the forms `history` uses.
enum ReportDate {
    /// 2026-11-23 in English, 23.11.2026 in German: the order and the marks between the numbers
    /// are the catalog's (never the machine's locale database, which may lack the language).
    static func day(_ usec: USec) -> String {
        guard let parts = LocalCalendar.parts(of: usec) else { return DateText.iso8601(usec: usec) }
        // TRANSLATORS: a date in the report: year, month, day (2026-11-23); numbers with their zeros.
        return localized("%1$s-%2$s-%3$s", parts.year, twoDigits(parts.month), twoDigits(parts.day))
    }

    /// 11-23 (23.11. in German), for an axis.
    static func monthDay(_ usec: USec) -> String {
        guard let parts = LocalCalendar.parts(of: usec) else { return DateText.iso8601(usec: usec) }
        // TRANSLATORS: a day on a chart's axis: month, day (11-23); numbers with their zeros.
        return localized("%1$s-%2$s", twoDigits(parts.month), twoDigits(parts.day))
    }

    /// 2026-11-23 18:02 (23.11.2026 18:02 in German).
    static func minute(_ usec: USec) -> String {
        guard let parts = LocalCalendar.parts(of: usec) else { return DateText.iso8601(usec: usec) }
        // TRANSLATORS: a date and time in the report: year, month, day, hours:minutes (2026-11-23 18:02).
        return localized(
            "%1$s-%2$s-%3$s %4$s", parts.year, twoDigits(parts.month), twoDigits(parts.day), time(parts))
    }

    /// 18:02.
    static func time(_ usec: USec) -> String {
        LocalCalendar.parts(of: usec).map(time) ?? String(DateText.iso8601(usec: usec).suffix(5))
    }

    private static func time(_ parts: LocalCalendar.Parts) -> String {
        twoDigits(parts.hour) + ":" + twoDigits(parts.minute)
    }

    private static func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
}
