//! Reading inputs and writing outputs for every subcommand: `-` is stdin/stdout, and every
//! failure becomes a [`CliError`] naming the file.

use d3d9_translator::bytecode::{decode_bytes, DecodeError, Program};
use std::io::{Read, Write};
use std::path::Path;

/// Why a subcommand failed; printed on stderr with a non-zero exit status.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Decode { path: String, source: DecodeError },
    #[error("{path}: {message}")]
    Input { path: String, message: String },
}

fn name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// The bytes of `path`, or of stdin for `-`.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    let result = if path == Path::new("-") {
        std::io::stdin().lock().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(path).map(|b| bytes = b)
    };
    result.map_err(|source| CliError::Io {
        path: name(path),
        source,
    })?;
    Ok(bytes)
}

/// The UTF-8 text of `path`, or of stdin for `-`.
pub fn read_text(path: &Path) -> Result<String, CliError> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| CliError::Input {
        path: name(path),
        message: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
    })
}

/// Decode the shader bytecode in `path` (raw little-endian tokens, as `fxc /Fo` writes).
pub fn read_program(path: &Path) -> Result<Program, CliError> {
    let bytes = read_bytes(path)?;
    decode_bytes(&bytes).map_err(|source| CliError::Decode {
        path: name(path),
        source,
    })
}

/// Write `data` to `path`, or to stdout for `-`.
pub fn write_bytes(path: &Path, data: &[u8]) -> Result<(), CliError> {
    let result = if path == Path::new("-") {
        let mut out = std::io::stdout().lock();
        out.write_all(data).and_then(|()| out.flush())
    } else {
        std::fs::write(path, data)
    };
    result.map_err(|source| CliError::Io {
        path: if path == Path::new("-") {
            "<stdout>".into()
        } else {
            path.display().to_string()
        },
        source,
    })
}

/// Write text to stdout.
pub fn print(text: &str) -> Result<(), CliError> {
    write_bytes(Path::new("-"), text.as_bytes())
}
