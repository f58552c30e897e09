//! Tokens of one preprocessed line of D3D9 assembly.
//!
//! Identifiers carry their `_` suffixes (`mov_x2_sat`, `dcl_texcoord0`, `r1_bx2`): the parser
//! splits them, because D3D9 assembly glues modifiers to names. Numbers are preprocessing
//! numbers (`1`, `0.`, `1.0f`, `1e+10`, `0x7fc00000`) that the parser converts where it knows
//! the type.

use super::error::{AsmError, AsmErrorKind, Pos};
use super::preprocess::PChar;

/// What a token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// A name: mnemonic with modifiers, register, swizzle letters, `true`/`false`.
    Ident(String),
    /// A number as written.
    Number(String),
    /// One of `, . [ ] ( ) + - !`.
    Punct(char),
}

impl Tok {
    /// How the token is quoted in error messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) | Tok::Number(s) => format!("'{s}'"),
            Tok::Punct(c) => format!("'{c}'"),
        }
    }
}

/// A token and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub pos: Pos,
}

/// Split the shader version word (`vs_1_1`, `ps.2.x`) off the start of the first line: the
/// leading run of letters, digits, `_` and `.`. Returns the word, its position and the index
/// of the rest of the line, or `None` for a blank line.
pub fn version_word(line: &[PChar]) -> Option<(String, Pos, usize)> {
    let start = line.iter().position(|&(c, _)| !c.is_whitespace())?;
    let mut end = start;
    while end < line.len()
        && (line[end].0.is_ascii_alphanumeric() || matches!(line[end].0, '_' | '.'))
    {
        end += 1;
    }
    if end == start {
        // Not a word at all: report the character itself as the version.
        end = start + 1;
    }
    let word = line[start..end].iter().map(|&(c, _)| c).collect();
    Some((word, line[start].1, end))
}

/// Tokenize one line.
pub fn lex(line: &[PChar]) -> Result<Vec<Token>, AsmError> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        let (c, pos) = line[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let mut j = i;
            loop {
                match line.get(j).map(|&(d, _)| d) {
                    Some(d) if d.is_ascii_alphanumeric() || d == '_' => j += 1,
                    // `_shift-4`: a negative shift written by the disassembler.
                    Some('-')
                        if ends_with_shift(&line[i..j])
                            && line.get(j + 1).is_some_and(|&(d, _)| d.is_ascii_digit()) =>
                    {
                        j += 1
                    }
                    _ => break,
                }
            }
            out.push(Token {
                tok: Tok::Ident(line[i..j].iter().map(|&(d, _)| d).collect()),
                pos,
            });
            i = j;
        } else if c.is_ascii_digit() {
            let hex = c == '0'
                && line
                    .get(i + 1)
                    .is_some_and(|&(d, _)| matches!(d, 'x' | 'X'));
            let mut j = i + 1;
            while let Some(&(d, _)) = line.get(j) {
                let prev = line[j - 1].0;
                let sign = !hex && matches!(d, '+' | '-') && matches!(prev, 'e' | 'E');
                if d.is_ascii_alphanumeric() || d == '_' || d == '.' || sign {
                    j += 1;
                } else {
                    break;
                }
            }
            out.push(Token {
                tok: Tok::Number(line[i..j].iter().map(|&(d, _)| d).collect()),
                pos,
            });
            i = j;
        } else if matches!(c, ',' | '.' | '[' | ']' | '(' | ')' | '+' | '-' | '!') {
            out.push(Token {
                tok: Tok::Punct(c),
                pos,
            });
            i += 1;
        } else {
            return Err(AsmError::new(pos, AsmErrorKind::UnexpectedChar(c)));
        }
    }
    Ok(out)
}

fn ends_with_shift(ident: &[PChar]) -> bool {
    let s: String = ident.iter().map(|&(c, _)| c.to_ascii_lowercase()).collect();
    s.ends_with("_shift")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<PChar> {
        s.chars()
            .enumerate()
            .map(|(i, c)| (c, Pos::new(1, i as u32 + 1)))
            .collect()
    }

    fn toks(s: &str) -> Vec<Tok> {
        lex(&chars(s))
            .expect("lexes")
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn splits_operands() {
        use Tok::*;
        assert_eq!(
            toks("mov_x2_sat r0.xy, -c[a0.x+12]_abs"),
            vec![
                Ident("mov_x2_sat".into()),
                Ident("r0".into()),
                Punct('.'),
                Ident("xy".into()),
                Punct(','),
                Punct('-'),
                Ident("c".into()),
                Punct('['),
                Ident("a0".into()),
                Punct('.'),
                Ident("x".into()),
                Punct('+'),
                Number("12".into()),
                Punct(']'),
                Ident("_abs".into()),
            ]
        );
    }

    #[test]
    fn numbers_and_negative_shift() {
        use Tok::*;
        assert_eq!(
            toks("def c0, 1.0f, 0., -1e+10, 0x7fc00000"),
            vec![
                Ident("def".into()),
                Ident("c0".into()),
                Punct(','),
                Number("1.0f".into()),
                Punct(','),
                Number("0.".into()),
                Punct(','),
                Punct('-'),
                Number("1e+10".into()),
                Punct(','),
                Number("0x7fc00000".into()),
            ]
        );
        assert_eq!(toks("mov_shift-4 r0")[0], Ident("mov_shift-4".into()));
        assert_eq!(toks("c[2+a0.x]")[2], Number("2".into()));
    }

    /// A `-` joins an identifier only after `_shift` and before a digit; elsewhere it is
    /// punctuation (`a0.x-1`, `_shift-a`).
    #[test]
    fn minus_joins_only_a_negative_shift() {
        use Tok::*;
        assert_eq!(
            toks("a0.x-1"),
            vec![
                Ident("a0".into()),
                Punct('.'),
                Ident("x".into()),
                Punct('-'),
                Number("1".into())
            ]
        );
        assert_eq!(
            toks("mov_shift-x"),
            vec![Ident("mov_shift".into()), Punct('-'), Ident("x".into())]
        );
    }

    /// An exponent's sign belongs to a decimal number (`0.5e+1`, `2e-3` at the start of the
    /// line) but not to a hexadecimal one (`0x1e+1` is `0x1e`, `+`, `1`).
    #[test]
    fn exponent_signs_in_decimal_numbers_only() {
        use Tok::*;
        assert_eq!(toks("0.5e+1"), vec![Number("0.5e+1".into())]);
        assert_eq!(toks("2e-3"), vec![Number("2e-3".into())]);
        assert_eq!(
            toks("0x1e+1"),
            vec![Number("0x1e".into()), Punct('+'), Number("1".into())]
        );
    }

    /// A version line that starts with no word reports its first character as the version.
    #[test]
    fn a_version_line_without_a_word_reports_its_first_character() {
        let (w, pos, rest) = version_word(&chars("  $vs_2_0")).expect("word");
        assert_eq!((w.as_str(), pos, rest), ("$", Pos::new(1, 3), 3));
    }

    #[test]
    fn version_word_takes_dots() {
        let (w, pos, rest) = version_word(&chars("  ps.1.4 mov")).expect("word");
        assert_eq!((w.as_str(), pos, rest), ("ps.1.4", Pos::new(1, 3), 8));
    }

    #[test]
    fn unknown_character_is_located() {
        let e = lex(&chars("mov r0, r1 @")).expect_err("rejected");
        assert_eq!((e.line, e.column), (1, 12));
    }
}
