//! Reading Wine's `d3d9_visual.json` at test time: shader tokens by function and name, the C
//! initialisers of a function's data arrays (vertex data, declarations, constants, tables)
//! and its literal pixel checks. Nothing of the corpus is copied into the repository.

use d3d9_translator::bytecode::Usage;
use d3d9_translator::decl::{DeclType, RawElement, VertexDeclaration};
use serde_json::Value;

/// The corpus file, under `../shared/corpus` beside the checkout.
const CORPUS: &str = "d3d9_visual.json";

/// The parsed corpus file.
pub struct Corpus {
    json: Value,
}

impl Corpus {
    /// Read and parse the corpus; a missing or malformed file is a reason, not a panic.
    pub fn load() -> Result<Corpus, String> {
        let text = crate::common::read_corpus(CORPUS)?;
        let json = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{}: not JSON: {e}",
                crate::common::corpus_path(CORPUS).display()
            )
        })?;
        Ok(Corpus { json })
    }

    /// The `functions[function]` section.
    pub fn function(&self, function: &str) -> Result<&Value, String> {
        let f = &self.json["functions"][function];
        if f.is_null() {
            return Err(format!("corpus has no function {function}"));
        }
        Ok(f)
    }

    /// The tokens of shader array `name` of `function` (from `shaders`, or from
    /// `composed_shaders` for the arrays Wine assembles at run time).
    pub fn shader(&self, function: &str, name: &str) -> Result<Vec<u32>, String> {
        for list in ["shaders", "composed_shaders"] {
            let Some(shaders) = self.json[list].as_array() else {
                continue;
            };
            if let Some(s) = shaders
                .iter()
                .find(|s| s["function"] == function && s["name"] == name)
            {
                if s["complete"] == false {
                    return Err(format!(
                        "shader {function}/{name} is incomplete in the corpus"
                    ));
                }
                return tokens(&s["tokens"])
                    .ok_or_else(|| format!("shader {function}/{name}: tokens are not u32s"));
            }
        }
        Err(format!("corpus has no shader {function}/{name}"))
    }

    /// The shaders Wine assembles at run time for `function` (`composed_shaders`), in corpus
    /// order: (name, tokens, the whole entry for its `expected` / constant fields).
    pub fn composed(&self, function: &str) -> Result<Vec<Composed<'_>>, String> {
        let list = self.json["composed_shaders"]
            .as_array()
            .ok_or("corpus has no composed_shaders")?;
        list.iter()
            .filter(|s| s["function"] == function)
            .map(|s| {
                let name = s["name"].as_str().unwrap_or_default().to_string();
                let tokens = tokens(&s["tokens"])
                    .ok_or_else(|| format!("composed shader {name}: tokens are not u32s"))?;
                Ok((name, tokens, s))
            })
            .collect()
    }

    /// The C text of data array `name` of `function`.
    pub fn data_array(&self, function: &str, name: &str) -> Result<&str, String> {
        let arrays = self.function(function)?["data_arrays"]
            .as_array()
            .ok_or_else(|| format!("{function}: no data_arrays"))?;
        let array = arrays
            .iter()
            .find(|a| a["name"] == name)
            .ok_or_else(|| format!("{function}: no data array {name}"))?;
        if array["truncated"] == true {
            return Err(format!(
                "{function}: data array {name} is truncated in the corpus"
            ));
        }
        array["text"]
            .as_str()
            .ok_or_else(|| format!("{function}/{name}: text is not a string"))
    }

    /// The literals of data array `name`'s initialiser, in order.
    pub fn initialiser(&self, function: &str, name: &str) -> Result<Vec<CToken>, String> {
        let text = self.data_array(function, name)?;
        let body = text
            .find('=')
            .map(|i| &text[i + 1..])
            .ok_or_else(|| format!("{function}/{name}: no initialiser"))?;
        tokenize(body).map_err(|e| format!("{function}/{name}: {e}"))
    }

    /// The numbers of data array `name`'s initialiser as floats (vertex data, constants).
    pub fn floats(&self, function: &str, name: &str) -> Result<Vec<f32>, String> {
        self.initialiser(function, name)?
            .iter()
            .filter(|t| !matches!(t, CToken::Ident(_)))
            .map(|t| {
                t.f32()
                    .ok_or_else(|| format!("{function}/{name}: {t:?} is not a float"))
            })
            .collect()
    }

    /// `D3DVERTEXELEMENT9` array `name`, created as `CreateVertexDeclaration` would.
    pub fn declaration(&self, function: &str, name: &str) -> Result<VertexDeclaration, String> {
        let raw = parse_elements(&self.initialiser(function, name)?)
            .map_err(|e| format!("{function}/{name}: {e}"))?;
        VertexDeclaration::from_raw(&raw)
            .map_err(|e| format!("{function}/{name}: CreateVertexDeclaration fails: {e}"))
    }

    /// The structured `pixel_checks` of `function`: (x, y, expected, max channel difference).
    pub fn pixel_checks(&self, function: &str) -> Result<Vec<PixelCheck>, String> {
        let checks = self.function(function)?["pixel_checks"]
            .as_array()
            .ok_or_else(|| format!("{function}: no pixel_checks"))?;
        checks
            .iter()
            .map(|c| {
                let num = |k: &str| {
                    c[k].as_u64()
                        .ok_or_else(|| format!("{function}: pixel check field {k} missing"))
                };
                let expected = c["expected"]
                    .as_str()
                    .and_then(|s| u32::from_str_radix(s.trim_start_matches("0x"), 16).ok())
                    .ok_or_else(|| format!("{function}: pixel check colour unreadable"))?;
                Ok(PixelCheck {
                    x: num("x")? as u32,
                    y: num("y")? as u32,
                    expected,
                    tolerance: num("max_channel_diff")? as u8,
                    line: num("line")?,
                })
            })
            .collect()
    }
}

/// A composed shader: its name, tokens and corpus entry.
pub type Composed<'a> = (String, Vec<u32>, &'a Value);

/// One literal pixel check of a Wine test.
#[derive(Debug, Clone, Copy)]
pub struct PixelCheck {
    pub x: u32,
    pub y: u32,
    pub expected: u32,
    pub tolerance: u8,
    /// Line in visual.c.
    pub line: u64,
}

fn tokens(value: &Value) -> Option<Vec<u32>> {
    value
        .as_array()?
        .iter()
        .map(|t| t.as_u64().and_then(|t| u32::try_from(t).ok()))
        .collect()
}

/// A literal of a C initialiser.
#[derive(Debug, Clone, PartialEq)]
pub enum CToken {
    /// A decimal or floating literal, as written (`-1.0f`, `0.1`, `-3`).
    Number(String),
    /// A hexadecimal literal (`0x3c000000`).
    Hex(u32),
    /// An identifier (`D3DDECLTYPE_FLOAT3`, `vs_texcoord1_code`).
    Ident(String),
}

impl CToken {
    /// The value as C converts it to `float` (`f`-suffixed literals are floats already; plain
    /// ones are doubles converted to float).
    pub fn f32(&self) -> Option<f32> {
        match self {
            CToken::Number(text) => {
                let t = text.trim_end_matches(['f', 'F']);
                if text.ends_with(['f', 'F']) {
                    t.parse::<f32>().ok()
                } else {
                    t.parse::<f64>().ok().map(|v| v as f32)
                }
            }
            CToken::Hex(v) => Some(*v as f32),
            CToken::Ident(_) => None,
        }
    }

    /// The value as a 32-bit integer (DWORD / D3DCOLOR / int).
    pub fn u32(&self) -> Option<u32> {
        match self {
            CToken::Hex(v) => Some(*v),
            CToken::Number(text) => text.parse::<i64>().ok().map(|v| v as u32),
            CToken::Ident(_) => None,
        }
    }

    /// The identifier text.
    pub fn ident(&self) -> Option<&str> {
        match self {
            CToken::Ident(s) => Some(s),
            _ => None,
        }
    }
}

/// The literals and identifiers of a C initialiser, comments and punctuation dropped.
pub fn tokenize(text: &str) -> Result<Vec<CToken>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied().unwrap_or('\0');
        if c == '/' && next == '*' {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '/' && next == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(CToken::Ident(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit()
            || ((c == '-' || c == '.') && (next.is_ascii_digit() || next == '.'))
        {
            let start = i;
            i += 1;
            if c == '0' && (next == 'x' || next == 'X') {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_hexdigit() {
                    i += 1;
                }
                let digits: String = chars[start + 2..i].iter().collect();
                let v = u32::from_str_radix(&digits, 16).map_err(|e| format!("0x{digits}: {e}"))?;
                out.push(CToken::Hex(v));
                continue;
            }
            while i < chars.len() {
                let d = chars[i];
                let exp_sign = (d == '-' || d == '+') && matches!(chars[i - 1], 'e' | 'E');
                if d.is_ascii_digit() || d == '.' || d == 'e' || d == 'E' || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            if i < chars.len() && matches!(chars[i], 'f' | 'F') {
                i += 1;
            }
            out.push(CToken::Number(chars[start..i].iter().collect()));
        } else {
            i += 1;
        }
    }
    Ok(out)
}

/// `{stream, offset, D3DDECLTYPE_*, D3DDECLMETHOD_*, D3DDECLUSAGE_*, index}` records followed
/// by `D3DDECL_END()`.
fn parse_elements(tokens: &[CToken]) -> Result<Vec<RawElement>, String> {
    let mut out = Vec::new();
    let mut rest = tokens;
    loop {
        match rest.first() {
            Some(CToken::Ident(end)) if end == "D3DDECL_END" => return Ok(out),
            None => return Err("no D3DDECL_END()".into()),
            _ => {}
        }
        let [stream, offset, ty, method, usage, index, tail @ ..] = rest else {
            return Err("truncated element".into());
        };
        let num = |t: &CToken| {
            t.u32()
                .and_then(|v| u16::try_from(v).ok())
                .ok_or_else(|| format!("{t:?} is not a number"))
        };
        let name = |t: &CToken, prefix: &str| {
            t.ident()
                .and_then(|s| s.strip_prefix(prefix))
                .map(str::to_owned)
                .ok_or_else(|| format!("{t:?} is not a {prefix} name"))
        };
        let ty_name = t_ident(ty)?;
        let ty = DeclType::from_name(ty_name).ok_or_else(|| format!("unknown type {ty_name}"))?;
        if name(method, "D3DDECLMETHOD_")? != "DEFAULT" {
            return Err(format!(
                "method {method:?}: only DEFAULT appears in these tests"
            ));
        }
        let usage_name = name(usage, "D3DDECLUSAGE_")?;
        let usage =
            Usage::from_name(&usage_name).ok_or_else(|| format!("unknown usage {usage_name}"))?;
        out.push(RawElement {
            stream: num(stream)?,
            offset: num(offset)?,
            ty: ty.raw(),
            method: 0,
            usage: u8::try_from(usage.raw()).map_err(|_| "usage out of range")?,
            usage_index: u8::try_from(num(index)?).map_err(|_| "usage index out of range")?,
        });
        rest = tail;
    }
}

fn t_ident(t: &CToken) -> Result<&str, String> {
    t.ident()
        .ok_or_else(|| format!("{t:?} is not an identifier"))
}

/// Wine's `color_match`: every 8-bit channel within `d`.
pub fn color_match(c1: u32, c2: u32, d: u8) -> bool {
    (0..4).all(|i| {
        let a = (c1 >> (8 * i)) & 0xff;
        let b = (c2 >> (8 * i)) & 0xff;
        a.abs_diff(b) <= u32::from(d)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizes_c_initialisers() {
        let t = tokenize("{{-2.4f, 0.0f}, 0x00ff0000}, /* c */ {vs_code, 1e-3, -3}")
            .expect("tokenizes");
        assert_eq!(
            t,
            vec![
                CToken::Number("-2.4f".into()),
                CToken::Number("0.0f".into()),
                CToken::Hex(0x00ff_0000),
                CToken::Ident("vs_code".into()),
                CToken::Number("1e-3".into()),
                CToken::Number("-3".into()),
            ]
        );
        assert_eq!(t[0].f32(), Some(-2.4f32));
        assert_eq!(t[5].u32(), Some(-3i32 as u32));
    }
}
