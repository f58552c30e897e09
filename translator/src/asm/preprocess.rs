//! The preprocessor subset that D3D9 assembly sources use, ahead of the lexer.
//!
//! Microsoft's assembler (and Wine's `D3DAssemble`) run the C preprocessor first. This module
//! implements the part shader sources use: `\` line continuations, `//`, `;` and `/* */`
//! comments, object-like `#define NAME text` and `#undef NAME` with rescanning, and `#line`.
//!
//! Every character keeps the physical line and column it came from; text produced by a macro
//! takes the position of the macro's name where it was used. Error messages therefore always
//! name the physical line of the input: `#line N "file"` is accepted and **does not** change
//! the reported line numbers (the numbers stay usable on the text the caller passed in).
//! Function-like macros, `#include` and conditional directives are reported as
//! [`AsmErrorKind::Unsupported`].

use super::error::{AsmError, AsmErrorKind, Pos};
use std::collections::HashMap;

/// A character of preprocessed text with the place it came from.
pub type PChar = (char, Pos);

/// Most characters one macro-expanded line may grow to; stops exponential `#define` chains.
const EXPANSION_LIMIT: usize = 1 << 20;
/// Deepest nesting of macro expansions.
const DEPTH_LIMIT: usize = 64;

/// Preprocess `text` into logical lines of positioned characters, comments and directives
/// removed and macros expanded.
pub fn preprocess(text: &str) -> Result<Vec<Vec<PChar>>, AsmError> {
    let chars = positioned(text);
    let spliced = splice(&chars);
    let uncommented = strip_comments(&spliced)?;
    let mut macros: HashMap<String, Vec<char>> = HashMap::new();
    let mut out = Vec::new();
    for line in uncommented.split(|&(c, _)| c == '\n') {
        let first = line.iter().position(|&(c, _)| !c.is_whitespace());
        match first {
            Some(i) if line[i].0 == '#' => directive(&line[i..], &mut macros)?,
            _ => {
                let mut budget = EXPANSION_LIMIT;
                let mut active = Vec::new();
                out.push(expand(line, &macros, &mut active, &mut budget)?);
            }
        }
    }
    Ok(out)
}

/// The characters of `text` with 1-based line and column; `\r\n` counts as one newline and a
/// lone `\r` as a space.
fn positioned(text: &str) -> Vec<PChar> {
    let mut out = Vec::with_capacity(text.len());
    let (mut line, mut column) = (1u32, 1u32);
    let mut it = text.chars().peekable();
    while let Some(c) = it.next() {
        let pos = Pos::new(line, column);
        match c {
            '\r' if it.peek() == Some(&'\n') => column = column.saturating_add(1),
            '\n' => {
                out.push(('\n', pos));
                line = line.saturating_add(1);
                column = 1;
            }
            '\r' => {
                out.push((' ', pos));
                column = column.saturating_add(1);
            }
            _ => {
                out.push((c, pos));
                column = column.saturating_add(1);
            }
        }
    }
    out
}

/// Remove `\` + newline (spaces or tabs between them are tolerated, as GCC does).
fn splice(chars: &[PChar]) -> Vec<PChar> {
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i].0 == '\\' {
            let mut j = i + 1;
            while j < chars.len() && matches!(chars[j].0, ' ' | '\t') {
                j += 1;
            }
            if j < chars.len() && chars[j].0 == '\n' {
                i = j + 1;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// Replace comments: `//` and `;` run to the end of the line, `/* */` becomes one space.
/// Double-quoted strings (as in `#line 1 "file"`) are copied untouched.
fn strip_comments(chars: &[PChar]) -> Result<Vec<PChar>, AsmError> {
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    let at = |k: usize| chars.get(k).map(|&(c, _)| c);
    while i < chars.len() {
        let (c, pos) = chars[i];
        match c {
            '"' => {
                out.push(chars[i]);
                i += 1;
                while i < chars.len() && !matches!(chars[i].0, '"' | '\n') {
                    out.push(chars[i]);
                    i += 1;
                }
                if at(i) == Some('"') {
                    out.push(chars[i]);
                    i += 1;
                }
            }
            ';' => {
                while i < chars.len() && chars[i].0 != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == Some('/') => {
                while i < chars.len() && chars[i].0 != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == Some('*') => {
                i += 2;
                loop {
                    match at(i) {
                        None => {
                            return Err(AsmError::new(
                                pos,
                                AsmErrorKind::Invalid("unterminated /* comment".into()),
                            ))
                        }
                        Some('*') if at(i + 1) == Some('/') => {
                            i += 2;
                            break;
                        }
                        Some(_) => i += 1,
                    }
                }
                out.push((' ', pos));
            }
            _ => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    Ok(out)
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Read an identifier starting at `i`; returns its text and the index after it.
fn ident_at(line: &[PChar], i: usize) -> (String, usize) {
    let mut j = i;
    while j < line.len() && is_ident_char(line[j].0) {
        j += 1;
    }
    (line[i..j].iter().map(|&(c, _)| c).collect(), j)
}

fn skip_blanks(line: &[PChar], mut i: usize) -> usize {
    while i < line.len() && line[i].0.is_whitespace() {
        i += 1;
    }
    i
}

/// Handle one directive line (`line[0]` is `#`).
fn directive(line: &[PChar], macros: &mut HashMap<String, Vec<char>>) -> Result<(), AsmError> {
    let hash_pos = line[0].1;
    let i = skip_blanks(line, 1);
    if i >= line.len() {
        return Ok(()); // the null directive
    }
    let name_pos = line[i].1;
    if !is_ident_start(line[i].0) {
        return Err(AsmError::new(
            name_pos,
            AsmErrorKind::Invalid("expected a preprocessor directive name after '#'".into()),
        ));
    }
    let (name, after) = ident_at(line, i);
    match name.as_str() {
        "define" => {
            let j = skip_blanks(line, after);
            let Some(&(c, pos)) = line.get(j) else {
                return Err(AsmError::new(
                    hash_pos,
                    AsmErrorKind::Invalid("#define needs a macro name".into()),
                ));
            };
            if !is_ident_start(c) {
                return Err(AsmError::new(
                    pos,
                    AsmErrorKind::Invalid(format!("'{c}' cannot start a macro name")),
                ));
            }
            let (macro_name, k) = ident_at(line, j);
            if line.get(k).map(|&(c, _)| c) == Some('(') {
                return Err(AsmError::new(
                    pos,
                    AsmErrorKind::Unsupported(format!(
                        "function-like macro '{macro_name}' (only object-like #define is handled)"
                    )),
                ));
            }
            let body: String = line[k..].iter().map(|&(c, _)| c).collect();
            macros.insert(macro_name, body.trim().chars().collect());
            Ok(())
        }
        "undef" => {
            let j = skip_blanks(line, after);
            if line.get(j).is_some_and(|&(c, _)| is_ident_start(c)) {
                let (macro_name, _) = ident_at(line, j);
                macros.remove(&macro_name);
                Ok(())
            } else {
                Err(AsmError::new(
                    hash_pos,
                    AsmErrorKind::Invalid("#undef needs a macro name".into()),
                ))
            }
        }
        // `#line N "file"` renames lines for the C preprocessor; errors here keep naming the
        // physical line of the text passed in (see the module documentation).
        "line" | "pragma" => Ok(()),
        "if" | "ifdef" | "ifndef" | "elif" | "else" | "endif" | "include" | "error" => {
            Err(AsmError::new(
                hash_pos,
                AsmErrorKind::Unsupported(format!("preprocessor directive #{name}")),
            ))
        }
        _ => Err(AsmError::new(
            name_pos,
            AsmErrorKind::Invalid(format!("unknown preprocessor directive #{name}")),
        )),
    }
}

/// Expand object-like macros in `input`, rescanning replacements; a macro is not expanded
/// inside its own replacement (the C rule), so self-reference terminates.
fn expand(
    input: &[PChar],
    macros: &HashMap<String, Vec<char>>,
    active: &mut Vec<String>,
    budget: &mut usize,
) -> Result<Vec<PChar>, AsmError> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        let (c, pos) = input[i];
        if is_ident_start(c) {
            let (name, j) = ident_at(input, i);
            match macros.get(&name) {
                Some(body) if !active.contains(&name) => {
                    if active.len() >= DEPTH_LIMIT {
                        return Err(AsmError::new(
                            pos,
                            AsmErrorKind::Unsupported("macros nested too deeply".into()),
                        ));
                    }
                    let body: Vec<PChar> = body.iter().map(|&b| (b, pos)).collect();
                    active.push(name);
                    let expanded = expand(&body, macros, active, budget)?;
                    active.pop();
                    charge(budget, expanded.len(), pos)?;
                    // Keep the replacement from pasting onto its neighbours.
                    out.push((' ', pos));
                    out.extend(expanded);
                    out.push((' ', pos));
                }
                _ => {
                    charge(budget, j - i, pos)?;
                    out.extend_from_slice(&input[i..j]);
                }
            }
            i = j;
        } else if c.is_ascii_digit() {
            // A preprocessing number: digits, letters, '.', '_' and a sign after an exponent.
            let mut j = i + 1;
            while j < input.len() {
                let d = input[j].0;
                let prev = input[j - 1].0;
                if is_ident_char(d)
                    || d == '.'
                    || (matches!(d, '+' | '-') && matches!(prev, 'e' | 'E'))
                {
                    j += 1;
                } else {
                    break;
                }
            }
            charge(budget, j - i, pos)?;
            out.extend_from_slice(&input[i..j]);
            i = j;
        } else {
            charge(budget, 1, pos)?;
            out.push(input[i]);
            i += 1;
        }
    }
    Ok(out)
}

fn charge(budget: &mut usize, n: usize, pos: Pos) -> Result<(), AsmError> {
    *budget = budget.checked_sub(n).ok_or_else(|| {
        AsmError::new(
            pos,
            AsmErrorKind::Unsupported("macro expansion grows beyond 1 MiB".into()),
        )
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Vec<PChar>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.iter().map(|&(c, _)| c).collect::<String>())
            .collect()
    }

    #[test]
    fn define_with_continuation_expands_at_use() {
        let out = preprocess("#define REG 1 + 2 +\\\n3 + 4\nvs.1.1\nmov r0, c0[ REG ]\n")
            .expect("preprocesses");
        let t = text(&out);
        assert_eq!(t[0], "vs.1.1");
        assert_eq!(t[1], "mov r0, c0[  1 + 2 +3 + 4  ]");
        // Expanded text takes the position of the macro name (line 4, column 13).
        assert_eq!(out[1][13], ('1', Pos::new(4, 13)));
    }

    #[test]
    fn comments_are_removed_and_positions_kept() {
        let out = preprocess("vs_1_1 // hi\n; all\n/* a\nb */ mov r0, r1 ; x\n").expect("ok");
        let t = text(&out);
        assert_eq!(t, vec!["vs_1_1 ", "", "  mov r0, r1 ", ""]);
        assert_eq!(out[2][2], ('m', Pos::new(4, 6)));
    }

    #[test]
    fn line_directive_is_accepted_and_does_not_renumber() {
        let out = preprocess("#line 10 \"a;b.vsh\"\nvs.1.1\n  nop\n").expect("ok");
        assert_eq!(out[1][2], ('n', Pos::new(3, 3)));
    }

    #[test]
    fn self_referencing_macros_terminate() {
        let out = preprocess("#define A B\n#define B A\nA").expect("ok");
        assert_eq!(text(&out)[0].trim(), "A");
    }

    #[test]
    fn unsupported_directives_name_their_line() {
        let e = preprocess("vs_1_1\n  #include \"x\"\n").expect_err("rejected");
        assert_eq!((e.line, e.column), (2, 3));
        assert!(matches!(e.kind, AsmErrorKind::Unsupported(_)));
        let e = preprocess("#define F(x) x\n").expect_err("rejected");
        assert!(matches!(e.kind, AsmErrorKind::Unsupported(_)));
    }

    #[test]
    fn exponential_macros_are_bounded() {
        let mut src = String::from("#define A0 x x\n");
        for i in 1..40 {
            src.push_str(&format!("#define A{i} A{p} A{p}\n", p = i - 1));
        }
        src.push_str("A39\n");
        assert!(preprocess(&src).is_err());
    }

    /// `\r\n` is one newline and a lone `\r` a space; positions count neither as a column.
    #[test]
    fn carriage_returns() {
        let out = preprocess("vs_1_1\r\n  nop\r\n").expect("ok");
        assert_eq!(text(&out), vec!["vs_1_1", "  nop", ""]);
        assert_eq!(out[1][2], ('n', Pos::new(2, 3)));
        let out = preprocess("vs_1_1\rnop").expect("ok");
        assert_eq!(text(&out), vec!["vs_1_1 nop"]);
        assert_eq!(out[0][7], ('n', Pos::new(1, 8)));
    }

    /// A backslash, then spaces or tabs, then the newline joins two lines.
    #[test]
    fn continuation_tolerates_trailing_blanks() {
        let out = preprocess("vs_1_1\nmov r0, \\ \t\nr1\n").expect("ok");
        assert_eq!(text(&out), vec!["vs_1_1", "mov r0, r1", ""]);
        let out = preprocess("vs_1_1\nmov r0, \\ x\n").expect("ok");
        assert_eq!(text(&out)[1], "mov r0, \\ x");
    }

    /// Comment markers inside a double-quoted string (`#line 1 "a/*b;c//d"`) are text; a
    /// string ends at its closing quote or at the end of the line. A lone `/` is no comment.
    #[test]
    fn strings_and_lone_slashes_are_not_comments() {
        let out = preprocess("#line 1 \"a/*b;c//d\"\nvs_1_1 ; x\nnop /* y */\n").expect("ok");
        assert_eq!(text(&out), vec!["vs_1_1 ", "nop  ", ""]);
        let out = preprocess("#line 1 \"open/*\nvs_1_1\nnop\n").expect("ok");
        assert_eq!(text(&out), vec!["vs_1_1", "nop", ""]);
        let out = preprocess("vs_1_1\nmov r0, r1 / 2\n").expect("ok");
        assert_eq!(text(&out)[1], "mov r0, r1 / 2");
        // After its closing quote the line is text again: a comment there is stripped.
        let out = preprocess("vs_1_1\nmov r0, r1 \"s\" ; x\n").expect("ok");
        assert_eq!(text(&out)[1], "mov r0, r1 \"s\" ");
    }

    /// Only `*/` ends a block comment, not a `*` inside it.
    #[test]
    fn a_star_inside_a_block_comment_does_not_end_it() {
        let out = preprocess("vs_1_1\nnop /* 2*3 **/ ; x\n").expect("ok");
        assert_eq!(text(&out)[1], "nop   ");
        // A comment opening the text, and one right after a `*/`-looking pair of characters.
        let out = preprocess("/* x */vs_1_1\nmov r0, r1*/* c */\n").expect("ok");
        assert_eq!(text(&out), vec![" vs_1_1", "mov r0, r1* ", ""]);
    }

    /// Macro names are not expanded inside preprocessing numbers (digits, letters, `.`, `_`
    /// and a sign after an exponent, as in C): `1e+5`, `0x1f`, `2.5`, `1e+e` stay as written,
    /// while in `1+e` the `e` is a name of its own.
    #[test]
    fn numbers_hide_macro_names() {
        let out = preprocess("#define e 7\n#define x 9\ndef c0, 1e+5, 0x1f, 2.5, 1e+e 1+e\n")
            .expect("ok");
        assert_eq!(text(&out)[0], "def c0, 1e+5, 0x1f, 2.5, 1e+e 1+ 7 ");
    }

    /// `#undef` forgets a macro; a long line without macros stays within the expansion
    /// budget (each token is charged its own length).
    #[test]
    fn undef_and_long_lines() {
        let out = preprocess("#define X 1\n#undef X\nX\n").expect("ok");
        assert_eq!(text(&out)[0], "X");
        let line = "a 1 ".repeat(4000);
        let out = preprocess(&line).expect("a 16000-character line");
        assert_eq!(text(&out)[0], line);
    }

    #[test]
    fn unterminated_block_comment_is_an_error() {
        let e = preprocess("vs_1_1\n/* open").expect_err("rejected");
        assert_eq!((e.line, e.column), (2, 1));
    }
}
