//! The per-function context the lifter owns: the naga function under construction, its
//! stack of open blocks (the control flow), and what is known of its values (constants,
//! finiteness, remembered register loads). Plain state: the verbs that fill it are in
//! `builder` and the modules that lower instructions.

use crate::bytecode::Opcode;
use naga::{Block, Expression, Function, GlobalVariable, Handle};
use std::collections::{HashMap, HashSet};

/// A computed value: an expression and its width (1 = scalar, 2–4 = vector).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Value {
    pub h: Handle<Expression>,
    pub n: u8,
}

/// What an open block belongs to.
pub(super) enum FrameKind {
    /// A function body.
    Body,
    /// `if`: the accept block while `accept` is `None`, then the reject block.
    If {
        condition: Handle<Expression>,
        accept: Option<Block>,
    },
    /// `loop` / `rep` body.
    Loop(LoopFrame),
    /// A block built aside (a loop's continuing block).
    Aside,
}

/// The state of one open `loop` or `rep`.
pub(super) struct LoopFrame {
    pub opcode: Opcode,
    /// Iterations done so far (a local's pointer).
    pub counter: Handle<Expression>,
    /// For `loop`: this loop's aL, its step, and the enclosing aL to restore on exit.
    pub al: Option<LoopCounter>,
}

/// aL bookkeeping of one `loop`.
pub(super) struct LoopCounter {
    /// This loop's aL (a local's pointer).
    pub value: Handle<Expression>,
    pub step: Handle<Expression>,
    /// The enclosing aL, restored when the loop ends (a local's pointer).
    pub saved: Handle<Expression>,
}

pub(super) struct Frame {
    pub kind: FrameKind,
    pub block: Block,
}

/// The function under construction.
pub(super) struct FnBuilder {
    pub function: Function,
    pub frames: Vec<Frame>,
    /// Expressions whose value is known at translation time (def'd constants, literals):
    /// one value per component.
    pub known: HashMap<Handle<Expression>, Vec<f32>>,
    pub globals: HashMap<Handle<GlobalVariable>, Handle<Expression>>,
    pub loops_made: u32,
    /// Which values are provably finite (`finite`).
    pub finite: Finiteness,
    /// Register values remembered in straight-line code (`loads`), with the depth of the
    /// block that emitted them.
    pub loads: HashMap<Loaded, (Handle<Expression>, usize)>,
    /// The values of the expressions WGSL evaluates at shader creation (`constness`).
    pub consts: HashMap<Handle<Expression>, ConstValue>,
}

impl FnBuilder {
    pub fn new(name: &str) -> FnBuilder {
        FnBuilder {
            function: Function {
                name: Some(name.to_string()),
                ..Function::default()
            },
            frames: vec![Frame {
                kind: FrameKind::Body,
                block: Block::new(),
            }],
            known: HashMap::new(),
            globals: HashMap::new(),
            loops_made: 0,
            finite: Finiteness::default(),
            loads: HashMap::new(),
            consts: HashMap::new(),
        }
    }
}

/// Finite values of the function under construction (`finite` decides them).
#[derive(Default)]
pub(super) struct Finiteness {
    /// Expressions all of whose components are finite.
    pub values: HashSet<Handle<Expression>>,
    /// `r#n` → components (bit c) written with finite values since the last join.
    pub temps: HashMap<u32, u8>,
}

/// A register whose loaded `vec4` can be remembered (`loads`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Loaded {
    Temp(u32),
    /// A direct `v#` read.
    Input(u32),
    /// A direct `t#` read (pixel shaders; ps_1_x writes them).
    Texture(u32),
    /// `vPos` (0) / `vFace` (1).
    Misc(u32),
    /// A direct `c#` read (flat index over the CONST banks).
    Const(u32),
    Addr,
    Loop,
    Pred,
}

/// The value of a constant expression, per component (`constness` computes it).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum ConstValue {
    Float(Vec<f32>),
    Bool(Vec<bool>),
}
