/// The markup of notification bodies (Desktop Notifications Specification, "Markup"): a small
/// XML-like subset that servers advertising `body-markup` parse. Pango markup, which waybar
/// reads in its `text` and `tooltip`, needs the same escaping.
public enum Markup {
    /// `text` with the characters markup gives meaning to replaced by entities, so that a label
    /// "<b>x</b> & y" is shown as written instead of bold, or breaking the body.
    ///
    /// Only &, < and > are escaped: quotes mean nothing outside tags, and the numeric entity for
    /// an apostrophe is not understood by every server (GNOME Shell shows "&#39;" literally).
    public static func escaped(_ text: String) -> String {
        // Scalars, not Characters: "<" followed by a combining mark is one Character that is not
        // equal to "<", yet a markup parser still sees the "<".
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
