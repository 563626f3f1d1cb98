/// The commands `TeXMath` knows, by what they become.
extension TeXMath {
    /// Letters and symbols that are identifiers (`mi`).
    static let identifiers: [String: String] = [
        "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ",
        "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
        "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "ϕ", "varphi": "φ", "chi": "χ", "psi": "ψ",
        "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Upsilon": "Υ",
        "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω", "infty": "∞", "partial": "∂", "nabla": "∇", "hbar": "ℏ", "ell": "ℓ", "Re": "ℜ", "Im": "ℑ",
        "aleph": "ℵ", "emptyset": "∅", "varnothing": "∅", "imath": "ı", "jmath": "ȷ", "wp": "℘",
    ]

    /// Operators, relations, arrows and punctuation (`mo`).
    static let operators: [String: String] = [
        "times": "×", "cdot": "⋅", "pm": "±", "mp": "∓", "div": "÷", "ast": "∗", "star": "⋆", "circ": "∘", "bullet": "∙", "oplus": "⊕",
        "ominus": "⊖", "otimes": "⊗", "odot": "⊙", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈",
        "equiv": "≡", "sim": "∼", "simeq": "≃", "cong": "≅", "propto": "∝", "ll": "≪", "gg": "≫", "prec": "≺", "succ": "≻",
        "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔", "Rightarrow": "⇒", "Leftarrow": "⇐",
        "Leftrightarrow": "⇔", "implies": "⟹", "impliedby": "⟸", "iff": "⟺", "mapsto": "↦", "longrightarrow": "⟶", "longleftarrow": "⟵",
        "uparrow": "↑", "downarrow": "↓", "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃",
        "supseteq": "⊇", "cup": "∪", "cap": "∩", "setminus": "∖", "forall": "∀", "exists": "∃", "nexists": "∄", "neg": "¬", "lnot": "¬",
        "land": "∧", "wedge": "∧", "lor": "∨", "vee": "∨", "perp": "⊥", "parallel": "∥", "mid": "∣", "nmid": "∤", "ldots": "…",
        "dots": "…", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱", "prime": "′", "angle": "∠", "triangle": "△", "therefore": "∴",
        "because": "∵", "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "vert": "|", "Vert": "‖",
        "|": "‖", "lbrace": "{", "rbrace": "}", "{": "{", "}": "}", "colon": ":", "%": "%", "$": "$", "#": "#", "&": "&", "_": "_",
        "degree": "°", "top": "⊤", "bot": "⊥", "vdash": "⊢", "models": "⊨", "cdotp": "⋅", "ldotp": ".", "lvert": "|", "rvert": "|",
        "lVert": "‖", "rVert": "‖",
    ]

    /// Operators drawn large, with their limits under and over them (integrals: beside them).
    static let largeOperators: [String: String] = [
        "sum": "∑", "prod": "∏", "coprod": "∐", "int": "∫", "iint": "∬", "iiint": "∭", "oint": "∮", "oiint": "∯", "oiiint": "∰", "intop": "∫", "bigcup": "⋃", "bigcap": "⋂",
        "bigoplus": "⨁", "bigotimes": "⨂", "bigvee": "⋁", "bigwedge": "⋀",
    ]

    /// Functions written upright.
    static let functions: Set<String> = [
        "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "coth", "log", "ln", "lg", "exp",
        "dim", "ker", "deg", "arg", "hom", "mod", "bmod",
    ]

    /// Functions whose subscript goes under them in displayed formulas.
    static let limitFunctions: Set<String> = ["lim", "liminf", "limsup", "max", "min", "sup", "inf", "det", "gcd", "Pr", "argmax", "argmin"]

    static let spaces: [String: String] = [
        ",": "0.167em", "thinspace": "0.167em", ":": "0.222em", ">": "0.222em", "medspace": "0.222em", ";": "0.278em",
        "thickspace": "0.278em", "!": "-0.167em", "negthinspace": "-0.167em", "quad": "1em", "qquad": "2em", " ": "0.333em", "enspace": "0.5em",
    ]

    /// Accents over their argument; `stretchy` ones widen with it.
    static let accents: [String: (mark: String, stretchy: Bool)] = [
        "hat": ("^", false), "widehat": ("^", true), "bar": ("¯", false), "overline": ("‾", true), "vec": ("→", false),
        "overrightarrow": ("→", true), "overleftarrow": ("←", true), "tilde": ("~", false), "widetilde": ("~", true), "dot": ("˙", false),
        "ddot": ("¨", false), "acute": ("´", false), "grave": ("`", false), "breve": ("˘", false), "check": ("ˇ", false),
    ]

    /// What `\left`, `\right` and `\big` take as a delimiter by name.
    static let delimiters: [String: String] = [
        "{": "{", "}": "}", "lbrace": "{", "rbrace": "}", "langle": "⟨", "rangle": "⟩", "|": "‖", "vert": "|", "Vert": "‖",
        "lvert": "|", "rvert": "|", "lVert": "‖", "rVert": "‖", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "backslash": "∖",
        "uparrow": "↑", "downarrow": "↓", "updownarrow": "↕", "Uparrow": "⇑", "Downarrow": "⇓", "/": "/",
    ]

    /// The environments, with the fences around their table.
    static let environments: [String: (open: String?, close: String?)] = [
        "matrix": (nil, nil), "smallmatrix": (nil, nil), "pmatrix": ("(", ")"), "bmatrix": ("[", "]"), "Bmatrix": ("{", "}"),
        "vmatrix": ("|", "|"), "Vmatrix": ("‖", "‖"), "cases": ("{", nil), "aligned": (nil, nil), "alignedat": (nil, nil),
        "gathered": (nil, nil), "split": (nil, nil), "array": (nil, nil), "align": (nil, nil), "align*": (nil, nil), "gather": (nil, nil),
        "gather*": (nil, nil), "equation": (nil, nil), "equation*": (nil, nil), "subarray": (nil, nil),
        "matrix*": (nil, nil), "pmatrix*": ("(", ")"), "bmatrix*": ("[", "]"), "vmatrix*": ("|", "|"), "dcases": ("{", nil), "rcases": (nil, "}"),
    ]
}
