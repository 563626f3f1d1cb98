import QuestionEngine

/// The Italian Python exam: snippets whose output is computed here, not typed in.
extension Families {
    static func pythonArithmetic(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let a = Int.random(in: 7...99, using: &r), b = Int.random(in: 2...9, using: &r), c = Int.random(in: 1...5, using: &r)
        let code = "a = \(a)\nb = \(b)\nprint(a // b + a % b * \(c))"
        let result = a / b + a % b * c
        return QuestionBuilder.single(
            key: key, kind: .codeSnippet, stem: "Che cosa stampa questo programma?", code: code, language: "python",
            answer: Choice(text: "\(result)", explanation: ""),
            distractors: [
                Choice(text: "\((a / b + a % b) * c)", explanation: "La moltiplicazione ha la precedenza sull'addizione."),
                Choice(text: String(Double(a) / Double(b) + Double(a % b * c)), explanation: "// è la divisione intera, non quella reale."),
                Choice(text: "\(a / b + c)", explanation: "Manca il resto a % b."),
                Choice(text: "\(result + 1)", explanation: "Ricontrolla il resto di \(a) diviso \(b)."),
            ],
            explanation: "\(a) // \(b) = \(a / b), \(a) % \(b) = \(a % b), quindi \(a / b) + \(a % b) × \(c) = \(result).",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static func pythonLists(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let values = (0..<Int.random(in: 4...7, using: &r)).map { _ in Int.random(in: 1...20, using: &r) }
        let threshold = Int.random(in: 5...15, using: &r)
        let factor = Int.random(in: 2...4, using: &r)
        let kept = values.filter { $0 > threshold }.map { $0 * factor }
        let code = "numeri = \(values)\nrisultato = [n * \(factor) for n in numeri if n > \(threshold)]\nprint(sum(risultato))"
        let sum = kept.reduce(0, +)
        return QuestionBuilder.single(
            key: key, kind: .codeSnippet, stem: "Che cosa stampa questo programma?", code: code, language: "python",
            answer: Choice(text: "\(sum)", explanation: ""),
            distractors: [
                Choice(text: "\(values.filter { $0 >= threshold }.map { $0 * factor }.reduce(0, +))", explanation: "La condizione è > \(threshold), non >=."),
                Choice(text: "\(values.reduce(0, +) * factor)", explanation: "Il filtro if esclude alcuni elementi."),
                Choice(text: "\(kept.count)", explanation: "sum somma i valori, non li conta."),
                Choice(text: "\(sum / factor)", explanation: "Ogni valore tenuto è moltiplicato per \(factor)."),
            ],
            explanation: "Restano \(values.filter { $0 > threshold }), moltiplicati per \(factor): \(kept), la cui somma è \(sum).",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static let italianWords = ["esame", "domanda", "risposta", "studente", "lezione", "programma", "quaderno", "biblioteca", "università", "matita"]

    static func pythonStrings(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let word = italianWords[index % italianWords.count]
        let characters = Array(word)
        let start = Int.random(in: 0...2, using: &r)
        let end = Int.random(in: (start + 2)...characters.count, using: &r)
        let step = index % 3 == 2 ? 2 : 1
        let slice = stride(from: start, to: end, by: step).map { String(characters[$0]) }.joined()
        let code = "parola = \"\(word)\"\nprint(parola[\(start):\(end)\(step == 2 ? ":2" : "")])"
        return QuestionBuilder.single(
            key: key, kind: .codeSnippet, stem: "Che cosa stampa questo programma?", code: code, language: "python",
            answer: Choice(text: slice, explanation: ""),
            distractors: [
                Choice(text: String(characters[start..<min(characters.count, end + 1)]), explanation: "L'indice di fine è escluso."),
                Choice(text: String(characters[min(start + 1, end - 1)..<end]), explanation: "Gli indici partono da 0."),
                Choice(text: String(characters[start..<end]) + (step == 2 ? "" : "?"), explanation: step == 2 ? "Il passo 2 salta un carattere su due." : "Non esiste un carattere in più."),
                Choice(text: String(characters[0..<end]), explanation: "Lo slicing parte da \(start), non da 0."),
            ],
            explanation: "parola[\(start):\(end)\(step == 2 ? ":2" : "")] prende i caratteri dall'indice \(start) incluso a \(end) escluso\(step == 2 ? ", uno sì e uno no" : ""): \"\(slice)\".",
            difficulty: step == 2 ? 4 : DemoCorpus.difficulty(index) % 4 + 1, using: &r)
    }

    static let pythonValues: [(String, Bool, String)] = [
        ("0", false, "lo zero è falso"), ("\"\"", false, "la stringa vuota è falsa"), ("[]", false, "la lista vuota è falsa"),
        ("None", false, "None è falso"), ("{}", false, "il dizionario vuoto è falso"), ("0.0", false, "lo zero reale è falso"),
        ("\"0\"", true, "una stringa non vuota è vera, anche \"0\""), ("[0]", true, "una lista con un elemento è vera"),
        ("-1", true, "ogni numero diverso da zero è vero"), ("\"False\"", true, "è una stringa non vuota"),
        ("(0,)", true, "una tupla con un elemento è vera"), ("set()", false, "l'insieme vuoto è falso"),
    ]

    static func pythonTruthiness(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        var chosen = Array(pythonValues.shuffled(using: &r).prefix(5))
        if !chosen.contains(where: { !$0.1 }) { chosen[0] = pythonValues[0] }
        return QuestionBuilder.multiple(
            key: key, stem: "Quali di questi valori sono falsi in un contesto booleano (per esempio in un if)? Scegli tutte le risposte corrette.",
            choices: chosen.map { (Choice(text: $0.0, explanation: $0.2.prefix(1).uppercased() + $0.2.dropFirst() + "."), !$0.1) },
            explanation: "In Python sono falsi None, False, gli zeri numerici e i contenitori vuoti; tutto il resto è vero.",
            difficulty: DemoCorpus.difficulty(index), using: &r)
    }

    static func pythonBases(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let value = Int.random(in: 5...500, using: &r)
        let useHex = index % 2 == 0
        let function = useHex ? "hex" : "bin"
        let answer = useHex ? "0x" + String(value, radix: 16) : "0b" + String(value, radix: 2)
        return QuestionBuilder.single(
            key: key, kind: .codeSnippet, stem: "Che cosa stampa questo programma?", code: "print(\(function)(\(value)))", language: "python",
            answer: Choice(text: answer, explanation: ""),
            distractors: [value + 1, value - 1, value * 2, value + 16].map { other in
                Choice(text: useHex ? "0x" + String(other, radix: 16) : "0b" + String(other, radix: 2), explanation: "Questa è la rappresentazione di \(other).")
            },
            explanation: "\(function)(\(value)) restituisce \(answer).",
            difficulty: value < 32 ? 1 : value < 128 ? 2 : 3, using: &r)
    }

    static let pythonProcedures: [(String, [String])] = [
        ("creare e usare un ambiente virtuale", ["python -m venv .venv", "source .venv/bin/activate", "pip install -r requirements.txt", "python app.py"]),
        ("pubblicare una modifica con git", ["git add file.py", "git commit -m \"messaggio\"", "git push"]),
        ("gestire un'eccezione", ["try: esegui il codice", "except: gestisci l'errore", "else: codice se non ci sono errori", "finally: pulizia finale"]),
        ("leggere un file in modo sicuro", ["with open(\"dati.txt\") as f:", "righe = f.readlines()", "il file viene chiuso all'uscita dal blocco"]),
    ]

    static func pythonWorkflow(_ key: String, _ index: Int, _ r: inout Random) -> NewQuestion {
        let (name, steps) = pythonProcedures[index % pythonProcedures.count]
        return QuestionBuilder.ordering(
            key: key, stem: "Metti in ordine i passi per \(name).",
            steps: steps.map { Choice(text: $0, explanation: "") },
            explanation: "L'ordine corretto è: " + steps.joined(separator: " → ") + ".",
            difficulty: steps.count - 1, using: &r)
    }
}
