pub mod disasm;
pub use disasm::disassemble;
