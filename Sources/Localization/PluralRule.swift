/// Which plural form a count takes in a language: a catalog header's
/// `Plural-Forms: nplurals=2; plural=(n != 1);`, whose expression is C's arithmetic on one
/// unsigned `n` (GNU gettext manual, "Additional functions for plural forms"): `?:`, `||`, `&&`,
/// comparisons, `+ - * / %`, `!`, parentheses and decimal numbers.
public struct PluralRule: Sendable {
    /// English's and German's: the first form for one, the second for every other count.
    public static let english = PluralRule(count: 2, expression: .notEqual(.n, .number(1)))

    /// How many forms the language has (`nplurals`).
    public let count: Int
    let expression: Expression

    init(count: Int, expression: Expression) {
        self.count = count
        self.expression = expression
    }

    /// The rule of a `Plural-Forms` header value; nil when it is not one (msgfmt --check refuses
    /// such a catalog, so only a hand-made file has it).
    public init?(header: String) {
        var count: Int?
        var expression: Expression?
        for field in header.split(separator: ";") {
            let parts = field.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            switch parts[0].trimmingPrefix(" ") {
            case "nplurals": count = Int(parts[1].filter { $0 != " " })
            case "plural":
                var parser = Parser(String(parts[1]))
                expression = parser.parse()
            default: continue
            }
        }
        guard let count, count > 0, let expression else { return nil }
        self.init(count: count, expression: expression)
    }

    /// The form, 0 to `count - 1`, that `n` takes; the first when the expression says one past
    /// the last or divides by zero, as gettext does.
    public func form(for n: UInt) -> Int {
        guard let form = expression.value(n: n), form < count else { return 0 }
        return Int(form)
    }

    indirect enum Expression: Equatable, Sendable {
        case n
        case number(UInt)
        case not(Expression)
        case binary(Operator, Expression, Expression)
        case condition(Expression, Expression, Expression)

        static func notEqual(_ left: Expression, _ right: Expression) -> Expression {
            .binary(.notEqual, left, right)
        }

        /// The value for `n`; nil on a division by zero.
        func value(n: UInt) -> UInt? {
            switch self {
            case .n: return n
            case .number(let value): return value
            case .not(let operand): return operand.value(n: n).map { $0 == 0 ? 1 : 0 }
            case .condition(let test, let then, let otherwise):
                guard let test = test.value(n: n) else { return nil }
                return test != 0 ? then.value(n: n) : otherwise.value(n: n)
            case .binary(let op, let left, let right):
                guard let left = left.value(n: n) else { return nil }
                // `||` and `&&` stop at their left side, as in C.
                if op == .or && left != 0 { return 1 }
                if op == .and && left == 0 { return 0 }
                guard let right = right.value(n: n) else { return nil }
                return op.apply(left, right)
            }
        }
    }

    enum Operator: String, CaseIterable, Sendable {
        case or = "||", and = "&&", equal = "==", notEqual = "!=", lessOrEqual = "<=", greaterOrEqual = ">="
        case less = "<", greater = ">", plus = "+", minus = "-", times = "*", divide = "/", remainder = "%"

        func apply(_ left: UInt, _ right: UInt) -> UInt? {
            switch self {
            case .or: return left != 0 || right != 0 ? 1 : 0
            case .and: return left != 0 && right != 0 ? 1 : 0
            case .equal: return left == right ? 1 : 0
            case .notEqual: return left != right ? 1 : 0
            case .lessOrEqual: return left <= right ? 1 : 0
            case .greaterOrEqual: return left >= right ? 1 : 0
            case .less: return left < right ? 1 : 0
            case .greater: return left > right ? 1 : 0
            case .plus: return left &+ right
            case .minus: return left &- right
            case .times: return left &* right
            case .divide: return right == 0 ? nil : left / right
            case .remainder: return right == 0 ? nil : left % right
            }
        }
    }

    /// A recursive descent over C's precedence, lowest first: `?:`, `||`, `&&`, `== !=`,
    /// `< > <= >=`, `+ -`, `* / %`, `!`.
    struct Parser {
        private let characters: [Character]
        private var position = 0

        init(_ text: String) {
            characters = Array(text.filter { !$0.isWhitespace })
        }

        mutating func parse() -> Expression? {
            guard let expression = condition(), position == characters.count else { return nil }
            return expression
        }

        private static let levels: [[Operator]] = [
            [.or], [.and], [.equal, .notEqual], [.lessOrEqual, .greaterOrEqual, .less, .greater],
            [.plus, .minus], [.times, .divide, .remainder],
        ]

        private mutating func condition() -> Expression? {
            guard let test = binary(level: 0) else { return nil }
            guard take("?") else { return test }
            guard let then = condition(), take(":"), let otherwise = condition() else { return nil }
            return .condition(test, then, otherwise)
        }

        private mutating func binary(level: Int) -> Expression? {
            guard level < Parser.levels.count else { return unary() }
            guard var left = binary(level: level + 1) else { return nil }
            while let op = Parser.levels[level].first(where: { take($0.rawValue) }) {
                guard let right = binary(level: level + 1) else { return nil }
                left = .binary(op, left, right)
            }
            return left
        }

        private mutating func unary() -> Expression? {
            if take("!") { return unary().map(Expression.not) }
            if take("n") { return .n }
            if take("(") {
                guard let inner = condition(), take(")") else { return nil }
                return inner
            }
            var digits = ""
            while position < characters.count, characters[position].isASCII, characters[position].isNumber {
                digits.append(characters[position])
                position += 1
            }
            return UInt(digits).map(Expression.number)
        }

        /// Moves past `token` when the text goes on with it (but not past `<` of `<=`, or `!`
        /// of `!=`, when the longer token is there).
        private mutating func take(_ token: String) -> Bool {
            let token = Array(token)
            guard position + token.count <= characters.count,
                Array(characters[position..<position + token.count]) == token
            else { return false }
            let next = position + token.count
            if token.count == 1, next < characters.count, characters[next] == "=", "<>!=".contains(token[0]) {
                return false
            }
            position = next
            return true
        }
    }
}
