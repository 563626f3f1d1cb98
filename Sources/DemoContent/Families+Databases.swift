import QuestionEngine

/// The Japanese database exam: SQL over tiny tables, evaluated here.
extension Families {
    /// A small `scores` table shown as SQL, with its rows.
    static func scoresTable(_ r: inout Random) -> (sql: String, rows: [(id: Int, name: String, score: Int)]) {
        let names = ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村"]
        let rows = (0..<Int.random(in: 4...7, using: &r)).map { index in
            (id: index + 1, name: names[index], score: Int.random(in: 40...100, using: &r))
        }
        let values = rows.map { "(\($0.id), '\($0.name)', \($0.score))" }.joined(separator: ",\n       ")
        return ("CREATE TABLE scores (id int, name text, score int);\nINSERT INTO scores VALUES \(values);", rows)
    }

    static func sqlCount(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let table = scoresTable(&r)
        let threshold = Int.random(in: 50...90, using: &r)
        let count = table.rows.filter { $0.score >= threshold }.count
        return QuestionBuilder.single(
            key: key, kind: .codeSnippet, stem: "次の問い合わせの結果はどれですか。",
            code: table.sql + "\n\nSELECT count(*) FROM scores WHERE score >= \(threshold);", language: "sql",
            answer: Choice(text: "\(count)", explanation: ""),
            distractors: [
                Choice(text: "\(table.rows.filter { $0.score > threshold }.count)", explanation: ">= は等しい値も含みます。"),
                Choice(text: "\(table.rows.count - count)", explanation: "条件に合わない行の数です。"),
                Choice(text: "\(table.rows.count)", explanation: "WHERE 句で行が絞り込まれます。"),
                Choice(text: "\(count + 1)", explanation: "各行の score を \(threshold) と比べ直してください。"),
            ],
            explanation: "score が \(threshold) 以上の行は \(count) 行です。",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static func sqlSum(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let table = scoresTable(&r)
        let useMax = index % 2 == 0
        let limitID = Int.random(in: 2...table.rows.count, using: &r)
        let selected = table.rows.filter { $0.id <= limitID }.map(\.score)
        let result = useMax ? selected.max()! : selected.reduce(0, +)
        return QuestionBuilder.single(
            key: key, kind: .codeSnippet, stem: "次の問い合わせの結果はどれですか。",
            code: table.sql + "\n\nSELECT \(useMax ? "max" : "sum")(score) FROM scores WHERE id <= \(limitID);", language: "sql",
            answer: Choice(text: "\(result)", explanation: ""),
            distractors: [
                Choice(text: "\(useMax ? table.rows.map(\.score).max()! : table.rows.map(\.score).reduce(0, +))", explanation: "WHERE 句を無視した値です。"),
                Choice(text: "\(useMax ? selected.min()! : selected.max()!)", explanation: useMax ? "最小値です。" : "最大値です。"),
                Choice(text: "\(useMax ? selected.reduce(0, +) : selected.reduce(0, +) / selected.count)", explanation: useMax ? "合計です。" : "平均です。"),
                Choice(text: "\(result + 10)", explanation: "対象の行を数え直してください。"),
            ],
            explanation: "id が \(limitID) 以下の行の score は \(selected) で、\(useMax ? "最大値" : "合計") は \(result) です。",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static func joinRows(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let left = Int.random(in: 2...40, using: &r), right = Int.random(in: 2...30, using: &r)
        return QuestionBuilder.single(
            key: key, stem: "\(left) 行の表 A と \(right) 行の表 B の CROSS JOIN は何行を返しますか。",
            answer: Choice(text: "\(left * right)", explanation: ""),
            distractors: [
                Choice(text: "\(left + right)", explanation: "UNION ALL の行数です。"),
                Choice(text: "\(max(left, right))", explanation: "直積ではすべての組み合わせが返ります。"),
                Choice(text: "\(min(left, right))", explanation: "結合条件はありません。"),
            ],
            explanation: "CROSS JOIN はすべての組み合わせを返すので \(left) × \(right) = \(left * right) 行です。",
            difficulty: left * right < 100 ? 1 : left * right < 400 ? 2 : 3, using: &r)
    }

    static func sqlMatchingRows(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let table = scoresTable(&r)
        let low = Int.random(in: 40...70, using: &r), high = low + Int.random(in: 10...30, using: &r)
        var matches = table.rows.prefix(6).map { ($0, $0.score >= low && $0.score <= high) }
        if !matches.contains(where: \.1) {
            matches[0].0.score = low
            matches[0].1 = true
        }
        let code = "CREATE TABLE scores (id int, name text, score int);\nINSERT INTO scores VALUES "
            + matches.map { "(\($0.0.id), '\($0.0.name)', \($0.0.score))" }.joined(separator: ",\n       ")
            + ";\n\nSELECT name FROM scores WHERE score BETWEEN \(low) AND \(high);"
        return QuestionBuilder.multiple(
            key: key, stem: "次の問い合わせの結果に含まれる名前をすべて選んでください。", code: code, language: "sql",
            choices: matches.map { row, hit in
                (Choice(text: row.name, explanation: "score は \(row.score) です。"), hit)
            },
            explanation: "BETWEEN は両端を含みます: \(low) 以上 \(high) 以下の行が返ります。",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static func storageUnitsJapanese(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let amount = Int.random(in: 2...64, using: &r)
        let units = [("KiB", "バイト", 1024), ("MiB", "KiB", 1024), ("GiB", "MiB", 1024)]
        let (big, small, factor) = units[index % 3]
        return QuestionBuilder.single(
            key: key, stem: "\(amount) \(big) は何 \(small) ですか。",
            answer: Choice(text: "\(amount * factor)", explanation: ""),
            distractors: [
                Choice(text: "\(amount * 1000)", explanation: "\(big) は 1000 ではなく 1024 倍の単位です。"),
                Choice(text: "\(amount * factor * 8)", explanation: "ビットに換算した値です。"),
                Choice(text: "\(amount * 100)", explanation: "倍率が違います。"),
            ],
            explanation: "1 \(big) = 1024 \(small) なので \(amount) × 1024 = \(amount * factor) です。",
            difficulty: index % 3 + 1, using: &r)
    }

    static let clauseOrder = ["FROM", "WHERE", "GROUP BY", "HAVING", "SELECT", "ORDER BY", "LIMIT"]

    static func sqlClauseOrder(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let count = 3 + index % 4
        var chosen = Array(clauseOrder.indices.shuffled(using: &r).prefix(count)).sorted()
        if chosen.count < 2 { chosen = [0, 4] }
        return QuestionBuilder.ordering(
            key: key, stem: "SQL の問い合わせで、次の句が論理的に評価される順に並べてください。",
            steps: chosen.map { Choice(text: clauseOrder[$0], explanation: "") },
            explanation: "論理的な評価順序は FROM → WHERE → GROUP BY → HAVING → SELECT → ORDER BY → LIMIT です。",
            difficulty: min(5, count - 1), using: &r)
    }

    static func binarySearchSteps(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let exponent = Int.random(in: 4...30, using: &r)
        let rows = 1 << exponent
        return QuestionBuilder.single(
            key: key, stem: "\(rows) 件のソート済みの索引を二分探索するとき、最悪でおよそ何回の比較が必要ですか。",
            answer: Choice(text: "\(exponent + 1)", explanation: ""),
            distractors: [
                Choice(text: "\(rows / 2)", explanation: "線形探索の平均です。"),
                Choice(text: "\(exponent * 2)", explanation: "一回の比較で範囲は半分になります。"),
                Choice(text: "\(Int(Double(rows).squareRoot()))", explanation: "平方根ではなく対数で増えます。"),
            ],
            explanation: "範囲が毎回半分になるので log2(\(rows)) + 1 = \(exponent + 1) 回です。",
            difficulty: exponent < 10 ? 2 : exponent < 20 ? 3 : 4, using: &r)
    }
}
