//! Reading one line's tokens left to right.

use super::*;

/// The tokens of one line, read left to right.
pub(super) struct Cursor<'a> {
    pub(super) toks: &'a [Token],
    pub(super) i: usize,
    /// Where "end of line" is reported.
    pub(super) end: Pos,
}

impl<'a> Cursor<'a> {
    pub(super) fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }

    pub(super) fn pos(&self) -> Pos {
        self.toks.get(self.i).map_or(self.end, |t| t.pos)
    }

    pub(super) fn at_end(&self) -> bool {
        self.i >= self.toks.len()
    }

    pub(super) fn found(&self) -> String {
        self.peek()
            .map_or_else(|| "end of line".to_string(), Tok::describe)
    }

    pub(super) fn expected(&self, expected: &'static str) -> AsmError {
        AsmError::new(
            self.pos(),
            AsmErrorKind::Expected {
                expected,
                found: self.found(),
            },
        )
    }

    pub(super) fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn expect(&mut self, c: char, what: &'static str) -> Result<(), AsmError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    /// The next token if it is an identifier.
    pub(super) fn ident(&mut self) -> Option<(&'a str, Pos)> {
        self.take(|t| match t {
            Tok::Ident(s) => Some(s),
            _ => None,
        })
    }

    /// The next token if it is a number.
    pub(super) fn number(&mut self) -> Option<(&'a str, Pos)> {
        self.take(|t| match t {
            Tok::Number(s) => Some(s),
            _ => None,
        })
    }

    /// The next token's text, if `pick` accepts the token.
    pub(super) fn take(&mut self, pick: fn(&Tok) -> Option<&String>) -> Option<(&'a str, Pos)> {
        let token = self.toks.get(self.i)?;
        let text = pick(&token.tok)?;
        self.i += 1;
        Some((text.as_str(), token.pos))
    }
}
