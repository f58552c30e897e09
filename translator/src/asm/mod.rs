//! D3D9 shader assembly text: the assembler (text → [`Program`](crate::bytecode::Program) →
//! tokens) and the disassembler (program → canonical text).
//!
//! The accepted syntax is Microsoft's shader assembly as Wine's `D3DAssemble` takes it, plus
//! the project's canonical text that the disassembler prints ([`disasm`] states it).
//! Assembly flows one way: [`preprocess`] → [`lexer`] → [`assemble`] (with the per-version
//! [`rules`]) → [`bytecode::encode`](crate::bytecode::encode).

pub mod assemble;
pub mod disasm;
pub mod error;
pub mod lexer;
pub mod preprocess;
pub mod rules;

pub use assemble::{assemble, assemble_tokens};
pub use disasm::disassemble;
pub use error::{AsmError, AsmErrorKind, Pos};
